package dev.distlock.test.simulation;

import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

/**
 * A deterministic simulation of the lock engine: several registries (simulated processes) on one in-memory store,
 * all on one virtual clock and one thread, every scheduled task run in an order drawn from the seed, with the
 * {@link Faults} of the {@link Scenario} injected into store commands, notices and processes. The same seed replays
 * the same run, event for event.
 *
 * <p>Oracles: mutual exclusion, judged by a resource that refuses stale fencing tokens ({@link FencedResource}); no
 * release that took effect is reported lost; every call ends within its bound; no call fails with an error that
 * is not its own store's; at the end, with faults off, nothing is left held, queued, or kept by a registry.
 *
 * <pre>{@code
 * SimulationResult result = Simulation.run(42, Scenario.DEFAULT);
 * assertThat(result.violations()).as(result.report(200)).isEmpty();
 * }</pre>
 */
public final class Simulation {

    /** How long, after the callers stop, the run may take to settle, in virtual time. */
    private static final Duration SETTLE = Duration.ofMinutes(2);

    private final long seed;
    private final Scenario scenario;
    private final VirtualScheduler scheduler;
    private final SimThreads threads;
    private final Trace trace;
    private final SimulatedStore store;
    private final List<String> violations = new ArrayList<>();
    private final FencedResource resource = new FencedResource(violations);
    private final List<String> names;
    private final List<SimulatedCaller> callers = new ArrayList<>();
    private final List<ScriptedLockRegistry> registries = new ArrayList<>();
    private final List<SimProcess> processes = new ArrayList<>();

    private Simulation(long seed, Scenario scenario) {
        this.seed = seed;
        this.scenario = scenario;
        this.scheduler = new VirtualScheduler(seed);
        this.threads = new SimThreads(scheduler);
        this.trace = new Trace(scheduler);
        this.store = new SimulatedStore(scheduler, threads, scenario.faults(), trace);
        this.names = IntStream.range(0, scenario.names()).mapToObj(i -> "n" + i).toList();
    }

    /** Runs {@code scenario} with {@code seed}. */
    public static SimulationResult run(long seed, Scenario scenario) {
        return new Simulation(seed, scenario).run();
    }

    private SimulationResult run() {
        long end = scheduler.nanoTime() + scenario.duration().toNanos();
        for (int p = 0; p < scenario.processes(); p++) {
            SimProcess process = new SimProcess("p" + p, scheduler, threads);
            processes.add(process);
            ScriptedLockRegistry registry = ScriptedLockRegistry.on(store).runtime(process)
                    .defaultLease(scenario.lease().multipliedBy(2)).maxPollInterval(Duration.ofMillis(200)).build();
            registries.add(registry);
            for (int c = 0; c < scenario.callersPerProcess(); c++) {
                SimCaller caller = new SimCaller(this, process, registry, process.id + ".c" + c, end);
                callers.add(caller);
                scheduler.soon(process, caller::nextCall);
            }
            for (int t = 0; t < scenario.blockingCallersPerProcess(); t++) {
                callers.add(new BlockingCaller(this, process, registry, process.id + ".t" + t, end));
            }
        }
        maybeCloseOneProcess(end);
        scheduler.runUntil(() -> false, end);
        store.faults(Faults.NONE.with(scenario.faults().commandTimeout()));
        trace.add("callers stop; faults off");
        long settleBy = end + SETTLE.toNanos();
        if (!scheduler.runUntil(this::allIdle, settleBy)) {
            callers.stream().filter(caller -> !caller.idle())
                    .forEach(caller -> violation(caller.id + "'s call never ended: " + caller.pending()));
        }
        checkNothingLeft(settleBy);
        scheduler.failures().forEach(failure -> violation("a task threw " + failure));
        long holds = callers.stream().mapToLong(SimulatedCaller::holds).sum();
        return new SimulationResult(seed, List.copyOf(violations), holds, scheduler.steps(), trace.lines());
    }

    /**
     * With the chance of {@link Faults#close()}, one process closes its registry at a moment drawn from the seed, while
     * its callers are busy: they stop, their calls in flight end (a wait with the registry's {@link
     * IllegalStateException}), and its holds are released by their callers or expire.
     */
    private void maybeCloseOneProcess(long end) {
        SplittableRandom random = scheduler.random();
        if (scenario.faults().close() == 0 || random.nextDouble() >= scenario.faults().close()) {
            return; // without the fault nothing is drawn: a seed's run stays what it was
        }
        int index = random.nextInt(registries.size());
        ScriptedLockRegistry registry = registries.get(index);
        SimProcess process = processes.get(index);
        scheduler.after(random.nextLong(end - scheduler.nanoTime()), process, () -> {
            trace.add(process.id + " closes its registry");
            callers.stream().filter(caller -> caller.process() == process).forEach(SimulatedCaller::stop);
            registry.closeAsync();
        });
    }

    private boolean allIdle() {
        return callers.stream().allMatch(SimulatedCaller::idle);
    }

    /** After the leases and queue places ran out, nothing is held or queued, and no registry keeps a name. */
    private void checkNothingLeft(long settleBy) {
        long leasesOver = scheduler.nanoTime() + scenario.lease().toNanos() * 4 + Duration.ofSeconds(3).toNanos();
        scheduler.runUntil(() -> false, Math.min(leasesOver, settleBy + Duration.ofSeconds(10).toNanos()));
        for (String name : names) {
            var snapshot = store.backend().inspect(name);
            if (snapshot.ownerToken() != null || snapshot.waiting() > 0) {
                violation("'" + name + "' left " + (snapshot.ownerToken() != null ? "held" : "")
                        + (snapshot.waiting() > 0 ? " with " + snapshot.waiting() + " waiting" : ""));
            }
        }
        for (ScriptedLockRegistry registry : registries) {
            if (registry.trackedNames() != 0) {
                violation("a registry still keeps " + registry.trackedNames() + " name(s)");
            }
            CompletableFuture<Void> closed = registry.closeAsync().toCompletableFuture();
            scheduler.runUntil(closed::isDone, scheduler.nanoTime() + Duration.ofSeconds(10).toNanos());
            if (!closed.isDone()) {
                violation("a registry did not close within 10 s");
            }
        }
    }

    // --- for the callers ---

    VirtualScheduler scheduler() {
        return scheduler;
    }

    SimThreads threads() {
        return threads;
    }

    Scenario scenario() {
        return scenario;
    }

    List<String> names() {
        return names;
    }

    FencedResource resource() {
        return resource;
    }

    SimulatedStore store() {
        return store;
    }

    void event(String event) {
        trace.add(event);
    }

    void violation(String violation) {
        trace.add("VIOLATION: " + violation);
        violations.add(violation);
    }
}
