package dev.distlock.benchmarks.report;

import dev.distlock.benchmarks.BenchmarkOptions;
import dev.distlock.benchmarks.BenchmarkResults;
import dev.distlock.benchmarks.jmh.JmhResult;
import dev.distlock.benchmarks.async.AsyncResult;
import dev.distlock.benchmarks.cost.CostResult;
import java.util.function.ToDoubleFunction;
import dev.distlock.benchmarks.memory.MemoryResult;
import dev.distlock.benchmarks.memory.MemoryResult.Checkpoint;
import dev.distlock.benchmarks.redis.CommandPaths;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.permits.PermitsComparison;
import dev.distlock.benchmarks.permits.PermitsResult;
import dev.distlock.benchmarks.readwrite.ReadWriteComparison;
import dev.distlock.benchmarks.readwrite.ReadWriteResult;
import dev.distlock.benchmarks.readwrite.ReadersComparison;
import dev.distlock.benchmarks.readwrite.ReadersResult;
import dev.distlock.benchmarks.renewals.RenewalResult;
import dev.distlock.benchmarks.scenarios.Scenario;
import dev.distlock.benchmarks.topologies.Topology;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/** Renders a run's results as Markdown: every table of the run, from which docs/BENCHMARKS.md takes its own. */
public final class MarkdownReport {

    private static final int COMMAND_MIX_ENTRIES = 8;

    private final BenchmarkResults results;
    private final Summaries summaries;
    private final StringBuilder out = new StringBuilder();

    private MarkdownReport(BenchmarkResults results) {
        this.results = results;
        this.summaries = Summaries.of(results.measurements());
    }

    /** The whole report. */
    public static String render(BenchmarkResults results) {
        return new MarkdownReport(results).render();
    }

    private String render() {
        header();
        if (!results.measurements().isEmpty()) {
            comparison();
        }
        if (!results.measurements().isEmpty() || !results.async().isEmpty() || !results.renewals().isEmpty()
                || !results.permits().isEmpty() || !results.readWrite().isEmpty() || !results.readers().isEmpty()) {
            targets();
        }
        summaries.byScenario().forEach(this::scenario);
        roundTrips();
        paths();
        jmh();
        memory();
        async();
        cost();
        renewals();
        permits();
        readWrite();
        topologies();
        return out.toString();
    }

    private void header() {
        BenchmarkOptions options = results.options();
        MachineInfo machine = results.machine();
        line("## Run of " + results.date());
        line();
        line("- Machine: " + machine.cores() + " cores (" + machine.cpu() + "), "
                + Format.number(machine.memoryGib(), 1) + " GiB, " + machine.os() + ", " + machine.java() + ", "
                + machine.redis() + " started by the run on a loopback port. Load average (1, 5, 15 min) "
                + machine.loadAtStart() + " at the start, " + results.loadAtEnd() + " at the end.");
        line("- Each measurement: " + seconds(options.measurement().toMillis()) + " timed after "
                + seconds(options.warmup().toMillis()) + " of warm-up on the same clients, fresh keys, Redis flushed "
                + "before; " + (options.warmupPass() ? "an untimed pass through every scenario and contender first; " : "")
                + options.rounds() + " rounds, contenders interleaved within every scenario of every round, rotated "
                + "by one each round.");
        line("- Ratios: mean (lowest–highest round) of the ops/s divided by the baseline's in the same round. "
                + "Latency is the acquire wait, waits unfinished at the deadline included, over all rounds. Fairness "
                + "is the fewest acquisitions of a thread divided by the most (worst round). Redis commands include "
                + "those run inside scripts (`INFO commandstats` deltas); Redis CPU is "
                + "`used_cpu_sys + used_cpu_user`.");
        line();
    }

    private void comparison() {
        line("Contenders, in the order of the first round; ratios are to the floor:");
        line();
        line("| contender | what runs |");
        line("| --- | --- |");
        results.contenders().forEach((name, description) -> line("| " + name + " | " + description + " |"));
        line();
    }

    private void targets() {
        line("### Targets (distlock)");
        line();
        line("| target | measured | status |");
        line("| --- | --- | --- |");
        for (TargetStatus target : Targets.evaluate(results, summaries)) {
            line("| " + target.target() + " | " + target.measured() + " | " + target.verdict() + " |");
        }
        line();
    }

    private void scenario(Scenario scenario, List<ScenarioSummary> rows) {
        ScenarioSummary first = rows.get(0);
        int threads = first.rounds().get(0).workload().threads();
        line("### Scenario " + scenario.number() + ": " + scenario.title(threads));
        line();
        if (scenario == Scenario.DISTINCT_KEYS) {
            line("All threads share one client (registry, Redisson client, connection), as an application's "
                    + "threads would.");
            line();
        }
        boolean handOff = scenario == Scenario.HAND_OFF;
        line("| contender | ops/s | " + (handOff ? "of ideal | " : "") + "× floor | acquire p50 | p99 | p99.9 | max | "
                + "fairness | Redis cmds/op | Redis CPU µs/op | exclusion |");
        line("| --- | ---: | " + (handOff ? "---: | " : "")
                + "---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
        for (ScenarioSummary row : rows) {
            line("| " + row.contender() + " | " + Format.number(row.opsPerSecond(), 0) + " | "
                    + (handOff ? Format.percent(row.shareOfIdeal()) + " | " : "")
                    + Format.ratio(row.ratio(), row.ratioMin(), row.ratioMax()) + " | "
                    + Format.millis(row.waitMillis(50)) + " | " + Format.millis(row.waitMillis(99)) + " | "
                    + Format.millis(row.waitMillis(99.9)) + " | " + Format.millis(row.waitMillis(100)) + " | "
                    + Format.number(row.fairness(), 2) + " | "
                    + Format.number(row.commandsPerOp(), 1) + " | " + Format.number(row.redisCpuMicrosPerOp(), 1)
                    + " | " + (row.exclusionHeld() ? "ok" : "**VIOLATED**") + " |");
        }
        line();
        if (handOff) {
            line("Ideal: one 2 ms hold after another, 500 locks/s. Mean measured hold: "
                    + rows.stream().map(r -> r.contender() + " " + Format.millis(r.meanHoldMillis()))
                            .collect(Collectors.joining(", ")) + ".");
            line();
        }
        line("Redis commands per lock+unlock, by name (script internals included):");
        line();
        for (ScenarioSummary row : rows) {
            line("- " + row.contender() + ": " + commandMix(row));
        }
        if (scenario.contended()) {
            line();
            line("Acquisitions per thread, round by round (who starves shows here):");
            line();
            for (ScenarioSummary row : rows) {
                line("- " + row.contender() + ": " + row.rounds().stream()
                        .map(m -> Arrays.stream(m.acquiredPerThread()).mapToObj(Long::toString)
                                .collect(Collectors.joining(" ")))
                        .collect(Collectors.joining(" / ")));
            }
        }
        notes(rows);
        line();
    }

    private static String commandMix(ScenarioSummary row) {
        long entries = row.entries();
        if (entries == 0) {
            return "no lock+unlock completed";
        }
        return row.redis().calls().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .limit(COMMAND_MIX_ENTRIES)
                .map(e -> e.getKey() + " " + Format.number(e.getValue() / (double) entries, 2))
                .collect(Collectors.joining(", "));
    }

    private void notes(List<ScenarioSummary> rows) {
        for (ScenarioSummary row : rows) {
            if (row.errors() > 0) {
                line("- " + row.contender() + " threw " + row.errors() + " exceptions, first: `" + row.firstError()
                        + "`");
            }
            if (row.rounds().stream().anyMatch(m -> m.stuckThreads() > 0)) {
                line("- " + row.contender() + ": threads still waiting a minute after the deadline were abandoned");
            }
        }
    }

    private void roundTrips() {
        List<RoundTrips> counts = results.roundTrips();
        if (counts.isEmpty()) {
            return;
        }
        line("### Round trips of one uncontended lock+unlock");
        line();
        line("Counted with `MONITOR` over " + counts.get(0).operations() + " lock+unlock pairs of one warmed-up client "
                + "on one key: the commands the client sent (one round trip each, as every client here waits for "
                + "each reply) and the commands its scripts ran.");
        line();
        line("| contender | round trips | commands incl. script internals | client sends | scripts run |");
        line("| --- | ---: | ---: | --- | --- |");
        for (RoundTrips c : counts) {
            line("| " + c.contender() + " | " + Format.number(c.roundTripsPerOp(), 2) + " | "
                    + Format.number(c.commandsPerOp(), 2) + " | " + RoundTrips.perOp(c.topLevel(), c.operations())
                    + " | " + RoundTrips.perOp(c.inScripts(), c.operations()) + " |");
        }
        line();
    }

    private void paths() {
        if (results.paths().isEmpty()) {
            return;
        }
        line("### The commands of every path (distlock)");
        line();
        line("Watched with `MONITOR`, in the order Redis ran them: a client's commands at the left (one round trip "
                + "each), the commands its functions or scripts ran indented; options shown, keys and values not. "
                + "Two threads of one registry meet on one name in the sixth path; two processes (registries with "
                + "connections of their own) from the seventh on. The registry's reading of the replicas online "
                + "(`INFO replication`, once a second in the background) is left out.");
        line();
        for (CommandPaths.CommandPath path : results.paths()) {
            line("- " + path.path() + " (" + path.commands().size() + " commands):");
            line();
            line("  ```");
            path.commands().forEach(command -> line("  " + command));
            line("  ```");
            line();
        }
    }

    private void jmh() {
        List<JmhResult> jmh = results.jmh();
        if (jmh.isEmpty()) {
            return;
        }
        line("### Annotation layer (JMH, in-memory registry)");
        line();
        line("`annotated`: a call through the `@DistributedLock` proxy (`name = \"'k:' + #id\"`); `direct`: the "
                + "same work through `LockRegistry.executeLocked` with the key built in Java; `keyEvaluation`: the "
                + "SpEL key alone, evaluated as the interceptor does it (its evaluator is package-private, so the "
                + "benchmark repeats its steps with the public Spring API)."
                + (results.options().jmhQuick() ? " **Quick mode: in-process and too short to mean anything.**" : ""));
        line();
        line("| benchmark | ns/op | ± (99.9%) |");
        line("| --- | ---: | ---: |");
        for (JmhResult r : jmh) {
            line("| " + r.benchmark() + " | " + Format.number(r.nanosPerOp(), 0) + " | "
                    + Format.number(r.error(), 0) + " |");
        }
        line();
        AnnotationOverhead.nanos(jmh).ifPresent(nanos -> {
            line("The annotation layer adds " + Format.number(nanos, 0) + " ns per call.");
            line();
        });
    }

    private void memory() {
        List<MemoryResult> memory = results.memory();
        if (memory.isEmpty()) {
            return;
        }
        line("### Memory: lock and unlock distinct names");
        line();
        line("Live heap after a full collection (class histogram), before the first name and at each checkpoint; "
                + "growth per name between the first checkpoint and the last. Under "
                + Format.number(MemoryResult.GROWTH_LIMIT_BYTES_PER_NAME, 0) + " bytes per name counts as flat.");
        line();
        line("| registry | live heap at each checkpoint | growth per name | verdict | grew most | time |");
        line("| --- | --- | ---: | --- | --- | ---: |");
        for (MemoryResult r : memory) {
            String points = r.checkpoints().stream()
                    .map(p -> Format.number(p.names(), 0) + ": " + mib(p))
                    .collect(Collectors.joining("; "));
            String growth = r.topGrowth().isEmpty() ? "no class by 16 KiB or more" : r.topGrowth().stream()
                    .map(g -> "`" + g.className() + "` +" + Format.number(g.bytes() / 1024.0, 0) + " KiB")
                    .collect(Collectors.joining(", "));
            line("| " + r.registry() + " | " + points + " | " + Format.number(r.bytesPerName(), 2) + " B | "
                    + (r.flat() ? "flat" : "**grows**") + " | " + growth + " | " + Format.number(r.seconds(), 0)
                    + " s |");
        }
        line();
    }

    private void async() {
        List<AsyncResult> async = results.async();
        if (async.isEmpty()) {
            return;
        }
        line("### Non-blocking callers");
        line();
        line("`lockAsync()`/`tryLockAsync()` with `unlockAsync()` on the Redis registry, and the same calls as "
                + "subscriptions to `@DistributedLock` `Mono` methods (through the starter's interceptor); the "
                + "virtual threads call `lock()`/`unlock()`; the floor makes the same "
                + "calls on Lettuce's async API directly (`SET NX PX`, compare-and-delete script, one connection). "
                + "Threads: the JVM's live threads before the calls and the most seen while they ran (sampled every "
                + "millisecond). Redis: commands (script internals included) and server CPU per lock+unlock, "
                + "from `INFO commandstats` and `INFO cpu` around the timed calls.");
        line();
        line("| what | calls | calls/s | Redis cmds/call | Redis CPU µs/call | threads idle → peak | arrival order |");
        line("| --- | ---: | ---: | ---: | ---: | ---: | --- |");
        for (AsyncResult r : async) {
            line("| " + r.what() + " | " + Format.number(r.calls(), 0) + " | " + Format.number(r.callsPerSecond(), 0)
                    + " | " + Format.number(r.commandsPerCall(), 1) + " | "
                    + Format.number(r.redisCpuMicrosPerCall(), 1) + " | " + r.threadsIdle() + " → " + r.threadsPeak() + " | "
                    + (r.inArrivalOrder() == null ? "" : r.inArrivalOrder() ? "yes" : "**no**") + " |");
        }
        line();
    }

    private void cost() {
        List<CostResult> cost = results.cost();
        if (cost.isEmpty()) {
            return;
        }
        line("### Java-side cost of one uncontended lock+unlock");
        line();
        line("CPU time and bytes allocated per lock+unlock, from the JVM's per-thread counters: on the calling "
                + "thread, and summed over all Java threads (the Redis client's event loops and the registry's "
                + "threads included; GC and compiler threads are not Java threads). Median of "
                + cost.get(0).runs().size() + " runs (range) after a warm-up run of as many pairs; one thread, "
                + "nothing else running in the JVM. The engine's budget: about 0.5 µs of CPU and at most 1 KB "
                + "allocated.");
        line();
        line("| case | pairs per run | wall ns | caller CPU ns | caller bytes | JVM CPU ns | JVM bytes |");
        line("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
        for (CostResult r : cost) {
            line("| " + r.what() + " | " + Format.number(r.operations(), 0) + " | "
                    + spread(r, CostResult.Run::wallNanos) + " | " + spread(r, CostResult.Run::callerCpuNanos) + " | "
                    + spread(r, CostResult.Run::callerBytes) + " | " + spread(r, CostResult.Run::jvmCpuNanos) + " | "
                    + spread(r, CostResult.Run::jvmBytes) + " |");
        }
        line();
    }

    private void renewals() {
        List<RenewalResult> renewals = results.renewals();
        if (renewals.isEmpty()) {
            return;
        }
        line("### Watchdog renewals of many holds");
        line();
        line("Renewed holds taken with `lockAsync()` on distinct names of one Redis registry and left held; the "
                + "watchdog renews each every third of its lease (one period). Holds with the same lease renew on a "
                + "shared grid of moments, and the renewals due together go to Redis as one script call of up to "
                + "500 holds. Counted from `INFO commandstats` over whole periods, starting one period after the "
                + "last hold was granted: script calls are the top-level `FCALL`, `EVALSHA` and `EVAL`; the "
                + "commands include what the scripts ran.");
        line();
        line("| holds | lease | periods | script calls per period | commands per period | still held | time |");
        line("| ---: | ---: | ---: | ---: | --- | ---: | ---: |");
        for (RenewalResult r : renewals) {
            String commands = r.commandsPerPeriod().isEmpty() ? "none" : r.commandsPerPeriod().entrySet().stream()
                    .limit(COMMAND_MIX_ENTRIES)
                    .map(e -> e.getKey() + " " + Format.number(e.getValue(), 1))
                    .collect(Collectors.joining(", "));
            line("| " + Format.number(r.holds(), 0) + " | " + seconds(r.lease().toMillis()) + " | " + r.periods()
                    + " | " + Format.number(r.scriptsPerPeriod(), 1) + " | " + commands + " | "
                    + (r.allHeld() ? "all" : "**" + Format.number(r.heldAtEnd(), 0) + "**") + " | "
                    + Format.number(r.seconds(), 0) + " s |");
        }
        line();
    }

    private void permits() {
        List<PermitsResult> permits = results.permits();
        if (permits.isEmpty()) {
            return;
        }
        line("### A semaphore of leased permits");
        line();
        line(PermitsComparison.WORKLOAD + ": each client on a connection of its own (a process each) takes a permit of "
                + "one semaphore, holds it and gives it back, as fast as it can; every permit has its own lease (30 s). "
                + "Takings per second, median of the rounds (range), and the most clients the harness ever counted "
                + "inside at once.");
        line();
        line("| contender | what runs | takings/s | × Redisson | most inside at once | failed |");
        line("| --- | --- | ---: | ---: | ---: | ---: |");
        double redisson = permits.stream().filter(r -> r.contender().equals("redisson"))
                .mapToDouble(PermitsResult::median).findFirst().orElse(Double.NaN);
        for (PermitsResult r : permits) {
            line("| " + r.contender() + " | " + r.description() + " | " + Format.number(r.median(), 0) + " ("
                    + Format.number(r.min(), 0) + "–" + Format.number(r.max(), 0) + ") | "
                    + Format.number(r.median() / redisson, 2) + " | " + r.mostInside() + " | " + r.failures() + " |");
        }
        line();
    }

    private void readWrite() {
        List<ReadWriteResult> readWrite = results.readWrite();
        List<ReadersResult> readers = results.readers();
        if (readWrite.isEmpty() && readers.isEmpty()) {
            return;
        }
        line("### Read-write locks");
        line();
        if (!readWrite.isEmpty()) {
            line(ReadWriteComparison.WORKLOAD + ": each client on a connection of its own (a process each) reads or "
                    + "writes at random (a seeded random per client), acquiring the read or the write side of one "
                    + "read-write lock, holding it and releasing it, as fast as it can. Operations (reads and writes) "
                    + "per second, median of the rounds (range); the harness counts the readers and writers inside: "
                    + "writer overlaps are holds that found a writer beside another holder (never, for a correct "
                    + "lock).");
            line();
            line("| contender | what runs | ops/s | reads/s | writes/s | × Redisson | writer overlaps "
                    + "| most readers at once | failed |");
            line("| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            double redisson = readWrite.stream().filter(r -> r.contender().equals("redisson"))
                    .mapToDouble(ReadWriteResult::median).findFirst().orElse(Double.NaN);
            for (ReadWriteResult r : readWrite) {
                line("| " + r.contender() + " | " + r.description() + " | " + Format.number(r.median(), 0) + " ("
                        + Format.number(r.min(), 0) + "–" + Format.number(r.max(), 0) + ") | "
                        + Format.number(r.medianReads(), 0) + " | " + Format.number(r.medianWrites(), 0) + " | "
                        + Format.number(r.median() / redisson, 2) + " | "
                        + (r.exclusionHeld() ? String.valueOf(r.writerOverlaps()) : "**" + r.writerOverlaps() + "**")
                        + " | " + r.mostReaders() + " | " + r.failures() + " |");
            }
            line();
        }
        for (ReadersResult r : readers) {
            line(ReadersComparison.WORKLOAD + ", distlock alone: the threads take only the read side of a read-write "
                    + "lock, then only the exclusive lock (`obtain(name)`), as fast as they can. Holds per second, "
                    + "median of the rounds (range).");
            line();
            line("| threads take | holds/s | × exclusive | most inside at once |");
            line("| --- | ---: | ---: | ---: |");
            line("| the read lock | " + Format.number(r.medianReads(), 0) + " (" + Format.number(r.minReads(), 0)
                    + "–" + Format.number(r.maxReads(), 0) + ") | " + Format.number(r.ratio(), 2) + " | "
                    + r.mostReaders() + " |");
            line("| the exclusive lock | " + Format.number(r.medianExclusive(), 0) + " ("
                    + Format.number(r.minExclusive(), 0) + "–" + Format.number(r.maxExclusive(), 0) + ") | 1.00 | "
                    + r.mostExclusive() + " |");
            line();
            if (r.failures() > 0) {
                line(r.failures() + " acquisitions or releases failed; the first: " + r.firstFailure());
                line();
            }
        }
    }

    /** A median with its range over the runs: {@code 512 (498–530)}. */
    private static String spread(CostResult result, ToDoubleFunction<CostResult.Run> figure) {
        return Format.number(result.median(figure), 0) + " (" + Format.number(result.min(figure), 0) + "–"
                + Format.number(result.max(figure), 0) + ")";
    }

    private void topologies() {
        if (results.topologyMeasurements().isEmpty()) {
            return;
        }
        line("### Topologies");
        line();
        line("distlock with its default settings (renewed 30 s lease, fencing tokens read) in the same scenarios, on "
                + "servers the run starts on loopback ports. Ratios are to `" + Topology.BASELINE + "` in the same "
                + "round. Redis figures are summed over the servers named below, per lock+unlock; cluster-bus "
                + "publishes are the `PUBLISH` messages the primaries sent each other (`CLUSTER INFO`).");
        line();
        line("| topology | what runs |");
        line("| --- | --- |");
        results.topologies().forEach((name, description) -> line("| " + name + " | " + description + " |"));
        line();
        Summaries.of(results.topologyMeasurements(), Topology.BASELINE).byScenario().forEach((scenario, rows) -> {
            int threads = rows.get(0).rounds().get(0).workload().threads();
            line("**Scenario " + scenario.number() + "**: " + scenario.title(threads));
            line();
            line("| topology | ops/s | × " + Topology.BASELINE + " | acquire p50 | p99 | p99.9 | Redis cmds/op "
                    + "| bus publishes/op | Redis CPU µs/op | exclusion |");
            line("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
            for (ScenarioSummary row : rows) {
                line("| " + row.contender() + " | " + Format.number(row.opsPerSecond(), 0) + " | "
                        + Format.ratio(row.ratio(), row.ratioMin(), row.ratioMax()) + " | "
                        + Format.millis(row.waitMillis(50)) + " | " + Format.millis(row.waitMillis(99)) + " | "
                        + Format.millis(row.waitMillis(99.9)) + " | " + Format.number(row.commandsPerOp(), 1) + " | "
                        + Format.number(row.busPublishesPerOp(), 1) + " | "
                        + Format.number(row.redisCpuMicrosPerOp(), 1) + " | "
                        + (row.exclusionHeld() ? "ok" : "**VIOLATED**") + " |");
            }
            line();
            for (ScenarioSummary row : rows) {
                line("- " + row.contender() + ": " + commandMix(row));
            }
            notes(rows);
            line();
        });
    }

    private static String mib(Checkpoint checkpoint) {
        return Format.number(checkpoint.liveBytes() / (1024.0 * 1024.0), 1) + " MiB";
    }

    private static String seconds(long millis) {
        return Format.number(millis / 1000.0, millis % 1000 == 0 ? 0 : 1) + " s";
    }

    private void line(String text) {
        out.append(text).append('\n');
    }

    private void line() {
        out.append('\n');
    }
}
