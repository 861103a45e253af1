package dev.distlock.benchmarks;

import dev.distlock.benchmarks.BenchmarkOptions.Part;
import dev.distlock.benchmarks.contenders.Contender;
import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.contenders.LettuceFloorContender;
import dev.distlock.benchmarks.contenders.LockClient;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.benchmarks.async.AsyncResult;
import dev.distlock.benchmarks.async.AsyncWaitersCheck;
import dev.distlock.benchmarks.cost.CostResult;
import dev.distlock.benchmarks.cost.GrantingStore;
import dev.distlock.benchmarks.cost.LockCostCheck;
import dev.distlock.benchmarks.jmh.JmhResult;
import dev.distlock.benchmarks.jmh.JmhRunner;
import dev.distlock.benchmarks.memory.MemoryCheck;
import dev.distlock.benchmarks.memory.MemoryResult;
import dev.distlock.benchmarks.redis.RedisStats;
import dev.distlock.benchmarks.redis.CommandPaths;
import dev.distlock.benchmarks.redis.RoundTripProbe;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.permits.PermitsComparison;
import dev.distlock.benchmarks.permits.PermitsResult;
import dev.distlock.benchmarks.readwrite.ReadWriteComparison;
import dev.distlock.benchmarks.readwrite.ReadWriteResult;
import dev.distlock.benchmarks.readwrite.ReadersComparison;
import dev.distlock.benchmarks.readwrite.ReadersResult;
import dev.distlock.benchmarks.renewals.RenewalCheck;
import dev.distlock.benchmarks.renewals.RenewalResult;
import dev.distlock.benchmarks.report.MachineInfo;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.MeasurementRunner;
import dev.distlock.benchmarks.scenarios.Scenario;
import dev.distlock.benchmarks.topologies.Topology;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockedTask;
import dev.distlock.test.RespClient;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One benchmark run: starts its own redis-server on a free loopback port, runs the parts the options name and
 * stops the server. Progress goes to the given stream, one line per measurement.
 */
public final class BenchmarkRun {

    private static final int MEMORY_THREADS = 4;
    /** The distinct-names measurement alternates floor and distlock this many times. */
    private static final int ASYNC_ROUNDS = 3;
    /** The work under each lock of the annotated waiters (and of the virtual threads they are compared with). */
    private static final Duration ASYNC_BODY = Duration.ofMillis(1);
    /** Measured runs of each case of the cost check. */
    private static final int COST_RUNS = 5;
    private static final Duration COST_WAIT = Duration.ofSeconds(1);
    /** The renewal check's lease: renewed every second, so that a few periods take a few seconds. */
    private static final Duration RENEWAL_LEASE = Duration.ofSeconds(3);
    /** Renewal periods measured: enough to average over the grid moments, short enough for a quick run. */
    private static final int RENEWAL_PERIODS = 5;

    private final BenchmarkOptions options;
    private final PrintStream progress;
    private final long startNanos = System.nanoTime();

    public BenchmarkRun(BenchmarkOptions options, PrintStream progress) {
        this.options = options;
        this.progress = progress;
    }

    /** Runs everything asked for and returns what was measured. */
    public BenchmarkResults run() throws Exception {
        try (RedisServer server = RedisServer.start();
                RespClient control = server.client();
                RedisStats stats = new RedisStats(server.client())) {
            RedisAddress address = new RedisAddress(server.host(), server.port());
            Map<String, String> descriptions = new LinkedHashMap<>();
            List<Contender> contenders = new ArrayList<>();
            for (String name : options.contenders()) {
                Contender contender = Contenders.create(name, address);
                contenders.add(contender);
                descriptions.put(name, contender.description());
            }
            MachineInfo machine = MachineInfo.collect(stats.serverVersion());
            say("%s at %s, load average %s", machine.redis(), server.uri(), machine.loadAtStart());
            List<Measurement> measurements = options.runs(Part.SCENARIOS)
                    ? interleaved(contenders, contender -> stats) : List.of();
            List<RoundTrips> roundTrips = options.runs(Part.ROUNDTRIPS)
                    ? roundTrips(contenders, server, control, stats) : List.of();
            List<CommandPaths.CommandPath> paths = options.runs(Part.ROUNDTRIPS)
                    ? new CommandPaths(address, control).capture() : List.of();
            List<MemoryResult> memory = options.runs(Part.MEMORY) ? memory(address, stats) : List.of();
            List<JmhResult> jmh = options.runs(Part.JMH) ? jmh() : List.of();
            List<AsyncResult> async = options.runs(Part.ASYNC) ? async(address, stats) : List.of();
            List<CostResult> cost = options.runs(Part.COST) ? cost(address, stats) : List.of();
            List<RenewalResult> renewals = options.runs(Part.RENEWALS) ? renewals(address, stats) : List.of();
            List<PermitsResult> permits = options.runs(Part.PERMITS) ? permits(address, stats) : List.of();
            List<ReadWriteResult> readWrite = options.runs(Part.READWRITE) ? readWrite(address, stats) : List.of();
            List<ReadersResult> readers = options.runs(Part.READWRITE) ? readers(address, stats) : List.of();
            Map<String, String> topologyDescriptions = new LinkedHashMap<>();
            List<Measurement> topologies = options.runs(Part.TOPOLOGIES) ? topologies(topologyDescriptions) : List.of();
            return new BenchmarkResults(options, LocalDate.now(), machine, descriptions, measurements, roundTrips,
                    paths, memory, jmh, async, cost, renewals, permits, readWrite, readers, topologyDescriptions,
                    topologies, MachineInfo.loadAverage());
        }
    }

    /**
     * Every round runs every scenario, and every scenario every contender in turn: A B C D, then B C D A in the next
     * round, so that no contender always runs first. An untimed pass through everything comes first, so that the
     * first measured contender does not pay for the JIT compiling the code all of them share (Lettuce, Netty).
     *
     * @param statsOf the counters of the servers a contender runs on
     */
    private <C extends Contender> List<Measurement> interleaved(List<C> contenders, Function<C, RedisStats> statsOf)
            throws InterruptedException {
        if (options.warmupPass()) {
            MeasurementRunner warmupPass = new MeasurementRunner(Duration.ZERO, options.warmup());
            for (Scenario scenario : options.scenarios()) {
                for (C contender : contenders) {
                    statsOf.apply(contender).flushAll();
                    warmupPass.run(contender, statsOf.apply(contender), scenario, options.threads(), 0);
                }
            }
            say("warm-up pass done");
        }
        MeasurementRunner runner = new MeasurementRunner(options.warmup(), options.measurement());
        List<Measurement> measurements = new ArrayList<>();
        for (int round = 1; round <= options.rounds(); round++) {
            List<C> order = new ArrayList<>(contenders);
            Collections.rotate(order, -(round - 1));
            for (Scenario scenario : options.scenarios()) {
                for (C contender : order) {
                    RedisStats stats = statsOf.apply(contender);
                    stats.flushAll();
                    Measurement m = runner.run(contender, stats, scenario, options.threads(), round);
                    measurements.add(m);
                    say("round %d/%d, scenario %d, %-14s %9.0f ops/s, p99 %7.2f ms, exclusion %s%s",
                            round, options.rounds(), scenario.number(), contender.name(), m.opsPerSecond(),
                            m.waits().getValueAtPercentile(99) / 1e6, m.exclusionHeld() ? "ok" : "VIOLATED",
                            m.errors() > 0 ? ", " + m.errors() + " errors: " + m.firstError() : "");
                    System.gc(); // the next contender should not pay for this one's garbage
                }
            }
        }
        return measurements;
    }

    /** distlock on every topology the options name, all started before the first round and stopped after the last. */
    private List<Measurement> topologies(Map<String, String> descriptions) throws InterruptedException {
        List<Topology> topologies = new ArrayList<>();
        try {
            for (String name : options.topologies()) {
                Topology topology = Topology.start(name);
                topologies.add(topology);
                descriptions.put(name, topology.description());
                say("topology %s started", name);
            }
            return interleaved(topologies, Topology::stats);
        } finally {
            Collections.reverse(topologies);
            topologies.forEach(Topology::close);
        }
    }

    private List<RoundTrips> roundTrips(List<Contender> contenders, RedisServer server, RespClient control,
            RedisStats stats) throws InterruptedException {
        RoundTripProbe probe = new RoundTripProbe(server.host(), server.port(), control);
        List<RoundTrips> counts = new ArrayList<>();
        for (Contender contender : contenders) {
            stats.flushAll();
            RoundTrips count = probe.measure(contender, options.roundTripOperations());
            counts.add(count);
            say("round trips, %-14s %.2f per lock+unlock, %.2f commands with script internals",
                    contender.name(), count.roundTripsPerOp(), count.commandsPerOp());
        }
        return counts;
    }

    private List<MemoryResult> memory(RedisAddress address, RedisStats stats) throws InterruptedException {
        List<Long> checkpoints = List.of(options.memoryNames() / 10, options.memoryNames());
        MemoryCheck check = new MemoryCheck(MEMORY_THREADS);
        say("memory check: %,d distinct names per registry", options.memoryNames());
        List<MemoryResult> results = new ArrayList<>();
        // the store keeps each name's last fencing token, as Redis keeps the fence key: a 1 ms retention lets its
        // sweep drop them, so that what remains is the registry's own state
        InMemoryLockStore store = new InMemoryLockStore(Clock.systemUTC(), Duration.ofMillis(1));
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().store(store).build()) {
            results.add(report(check.run("distlock InMemoryLockRegistry", registry, checkpoints)));
        }
        stats.flushAll();
        LettuceConnectionFactory factory = address.newConnectionFactory();
        try (RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-memory").build()) {
            results.add(report(check.run("distlock RedisLockRegistry", registry, checkpoints)));
        } finally {
            factory.destroy();
            stats.flushAll();
        }
        return results;
    }

    private List<RenewalResult> renewals(RedisAddress address, RedisStats stats) throws InterruptedException {
        say("renewals: %,d renewed holds, lease %d s, %d renewal periods measured", options.renewalHolds(),
                RENEWAL_LEASE.toSeconds(), RENEWAL_PERIODS);
        stats.flushAll();
        LettuceConnectionFactory factory = address.newConnectionFactory();
        try (RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-renewals").build()) {
            return List.of(report(new RenewalCheck(stats).run(registry, options.renewalHolds(), RENEWAL_LEASE,
                    RENEWAL_PERIODS)));
        } finally {
            factory.destroy();
            stats.flushAll();
        }
    }

    private List<PermitsResult> permits(RedisAddress address, RedisStats stats) throws Exception {
        say("permits: %s, %d rounds of %d s", PermitsComparison.WORKLOAD, options.rounds(),
                options.measurement().toSeconds());
        List<PermitsResult> results = new PermitsComparison(address, stats).run(options.warmup(),
                options.measurement(), options.rounds());
        results.forEach(r -> say("  %-9s %,.0f takings/s (median), most inside at once %d, %d failed", r.contender(),
                r.median(), r.mostInside(), r.failures()));
        return results;
    }

    private List<ReadWriteResult> readWrite(RedisAddress address, RedisStats stats) throws Exception {
        say("read-write: %s, %d rounds of %d s", ReadWriteComparison.WORKLOAD, options.rounds(),
                options.measurement().toSeconds());
        List<ReadWriteResult> results = new ReadWriteComparison(address, stats).run(options.warmup(),
                options.measurement(), options.rounds());
        results.forEach(r -> say("  %-9s %,.0f ops/s (median; %,.0f reads/s, %,.0f writes/s), writer overlaps %d, "
                + "most readers inside at once %d, most writers %d, %d failed%s", r.contender(), r.median(),
                r.medianReads(), r.medianWrites(), r.writerOverlaps(), r.mostReaders(), r.mostWriters(), r.failures(),
                r.firstFailure() == null ? "" : ", first: " + r.firstFailure()));
        return results;
    }

    private List<ReadersResult> readers(RedisAddress address, RedisStats stats) throws Exception {
        say("readers against the exclusive lock: %s, %d rounds of %d s", ReadersComparison.WORKLOAD,
                options.rounds(), options.measurement().toSeconds());
        ReadersResult r = new ReadersComparison(address, stats).run(options.warmup(), options.measurement(),
                options.rounds());
        say("  readers %,.0f holds/s, exclusive %,.0f holds/s (medians): %.2f×, most readers inside at once %d, "
                + "most exclusive holders %d, %d failed%s", r.medianReads(), r.medianExclusive(), r.ratio(),
                r.mostReaders(), r.mostExclusive(), r.failures(),
                r.firstFailure() == null ? "" : ", first: " + r.firstFailure());
        return List.of(r);
    }

    private List<AsyncResult> async(RedisAddress address, RedisStats stats) throws Exception {
        int waiters = options.asyncWaiters();
        int distinct = Math.max(1, waiters / 20);
        say("non-blocking callers: %,d waiters on one name, %d at once on distinct names", waiters, distinct);
        AsyncWaitersCheck check = new AsyncWaitersCheck(stats);
        List<AsyncResult> results = new ArrayList<>();
        LettuceConnectionFactory holders = address.newConnectionFactory();
        LettuceConnectionFactory waiting = address.newConnectionFactory();
        RedisClient floor = RedisClient.create(RedisURI.create(address.host(), address.port()));
        try (RedisLockRegistry holding = RedisLockRegistry.builder(holders).keyPrefix("bench-async").build();
                RedisLockRegistry registry = RedisLockRegistry.builder(waiting).keyPrefix("bench-async").build()) {
            results.add(report(check.oneName(holding, registry, waiters)));
            check.oneNameOnVirtualThreads(holding, registry, waiters, Duration.ZERO).map(this::report)
                    .ifPresent(results::add);
            // the budget: annotated Monos with a 1 ms body against the blocking API on virtual threads
            results.add(report(check.oneNameAnnotated(holding, registry, waiters, ASYNC_BODY)));
            check.oneNameOnVirtualThreads(holding, registry, waiters, ASYNC_BODY).map(this::report)
                    .ifPresent(results::add);
            for (int round = 0; round < ASYNC_ROUNDS; round++) {
                results.add(report(check.floorDistinctNames(floor, distinct, options.asyncRounds())));
                results.add(report(check.distinctNames(registry, distinct, options.asyncRounds())));
                results.add(report(check.distinctNamesAnnotated(registry, distinct, options.asyncRounds())));
            }
        } finally {
            floor.shutdown();
            holders.destroy();
            waiting.destroy();
            stats.flushAll();
        }
        return results;
    }

    /**
     * The cost check's cases, each on one thread and one name (or distinct names) that nobody else uses: the
     * in-memory registry with lock()/unlock() and executeLocked, the engine alone on a store that grants at once, the
     * Redis registry with lock()/unlock() and with tryLockAsync(0)/unlockAsync() awaited one pair at a time, and the
     * floor contender's two Lettuce calls (what a lock on Lettuce costs at least).
     */
    private List<CostResult> cost(RedisAddress address, RedisStats stats) throws Exception {
        int inMemory = options.costOperations();
        int onRedis = Math.max(1, inMemory / 20);
        say("cost check: %,d lock+unlock pairs per run in memory, %,d on Redis, %d runs each", inMemory, onRedis,
                COST_RUNS);
        LockCostCheck check = new LockCostCheck(COST_RUNS);
        List<CostResult> results = new ArrayList<>();
        // distinct names: built up front, so that the pairs allocate no name; the store keeps each name's fence
        // for 1 ms, as in the memory check, so that a million names do not pile up in it
        String[] names = new String[inMemory];
        Arrays.setAll(names, i -> "cost-distinct:" + i);
        InMemoryLockStore store = new InMemoryLockStore(Clock.systemUTC(), Duration.ofMillis(1));
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().store(store).build()) {
            FencedLock same = registry.obtain("cost-same");
            for (String name : options.costCases()) {
                switch (name) {
                    case "memory-same" -> results.add(report(check.measure(
                            "in memory: lock() + unlock(), one name", inMemory, i -> lockAndUnlock(same))));
                    case "memory-distinct" -> results.add(report(check.measure(
                            "in memory: obtain(name) + lock() + unlock(), distinct names", inMemory,
                            i -> lockAndUnlock(registry.obtain(names[i])))));
                    case "memory-execute" -> results.add(report(check.measure(
                            "in memory: executeLocked(name, 1 s, task), one name", inMemory,
                            i -> registry.executeLocked("cost-execute", COST_WAIT, CostTask.INSTANCE))));
                    default -> { } // engine alone, or on Redis, below
                }
            }
        }
        if (options.costCases().contains("engine-same")) {
            try (ScriptedLockRegistry registry = ScriptedLockRegistry.on(new GrantingStore()).build()) {
                FencedLock lock = registry.obtain("cost-engine");
                results.add(report(check.measure("engine alone (a store that grants at once): lock() + unlock(), "
                        + "one name", inMemory, i -> lockAndUnlock(lock))));
            }
        }
        LettuceConnectionFactory factory = address.newConnectionFactory();
        try (RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-cost").build()) {
            FencedLock blocking = registry.obtain("cost-lock");
            FencedLock async = registry.obtain("cost-async");
            for (String name : options.costCases()) {
                switch (name) {
                    case "redis-lock" -> results.add(report(check.measure(
                            CostResult.REDIS_LOCK, onRedis, i -> lockAndUnlock(blocking))));
                    case "redis-async" -> results.add(report(check.measure(
                            "Redis: tryLockAsync(0) + unlockAsync(), one name, awaited", onRedis,
                            i -> tryAndUnlockAsync(async))));
                    default -> { } // in memory, above
                }
            }
        } finally {
            factory.destroy();
            stats.flushAll();
        }
        if (options.costCases().contains("floor")) {
            try (LockClient floor = new LettuceFloorContender(address).newClient()) {
                results.add(report(check.measure(CostResult.FLOOR, onRedis,
                        i -> floor.tryLock("cost-floor", 0).release())));
            } finally {
                stats.flushAll();
            }
        }
        return results;
    }

    private static void lockAndUnlock(FencedLock lock) {
        lock.lock();
        lock.unlock();
    }

    private static void tryAndUnlockAsync(FencedLock lock) {
        DetachedLock held = lock.tryLockAsync(Duration.ZERO).toCompletableFuture().join();
        if (held == null) {
            throw new IllegalStateException("lock " + lock.name() + " was busy: the cost check must be uncontended");
        }
        held.unlockAsync().toCompletableFuture().join();
    }

    /** The critical section of executeLocked: nothing, and no lambda allocated per call. */
    private enum CostTask implements LockedTask<Integer, RuntimeException> {
        INSTANCE;

        @Override
        public Integer run() {
            return 1;
        }
    }

    private CostResult report(CostResult result) {
        say("cost, %s: %,.0f ns, caller CPU %,.0f ns, caller %,.0f B, JVM CPU %,.0f ns, JVM %,.0f B per lock+unlock",
                result.what(), result.median(CostResult.Run::wallNanos), result.median(CostResult.Run::callerCpuNanos),
                result.median(CostResult.Run::callerBytes), result.median(CostResult.Run::jvmCpuNanos),
                result.median(CostResult.Run::jvmBytes));
        return result;
    }

    private AsyncResult report(AsyncResult result) {
        say("async, %s: %,.0f calls/s, %.1f Redis commands and %.1f µs of Redis CPU per call, threads %d idle, "
                + "%d at most%s", result.what(), result.callsPerSecond(), result.commandsPerCall(),
                result.redisCpuMicrosPerCall(), result.threadsIdle(), result.threadsPeak(),
                result.inArrivalOrder() == null ? ""
                        : result.inArrivalOrder() ? ", in arrival order" : ", OUT OF ORDER");
        return result;
    }

    private RenewalResult report(RenewalResult result) {
        say("renewals, %,d holds: %.1f script calls per period, %,.1f commands per period (%s), %,d still held, "
                + "%.1f s", result.holds(), result.scriptsPerPeriod(),
                result.commandsPerPeriod().values().stream().mapToDouble(Double::doubleValue).sum(),
                result.commandsPerPeriod().entrySet().stream()
                        .map(e -> e.getKey() + " " + String.format("%,.1f", e.getValue()))
                        .collect(Collectors.joining(", ")),
                result.heldAtEnd(), result.seconds());
        return result;
    }

    private MemoryResult report(MemoryResult result) {
        say("memory, %s: %.2f bytes retained per name (%s)", result.registry(), result.bytesPerName(),
                result.flat() ? "flat" : "GROWS");
        return result;
    }

    /** Prints a progress line, prefixed with the time since the run started. */
    private void say(String format, Object... args) {
        long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNanos);
        progress.printf("[%02d:%02d] %s%n", seconds / 60, seconds % 60, String.format(format, args).stripTrailing());
    }

    private List<JmhResult> jmh() throws Exception {
        say("JMH: the annotation layer (JMH reports its own progress)");
        return new JmhRunner(options.jmhQuick() ? JmhRunner.Settings.quick() : JmhRunner.Settings.standard()).run();
    }
}
