package dev.distlock.benchmarks.cost;

import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The Java-side cost of one uncontended lock+unlock: CPU time and bytes allocated per pair, on the calling thread
 * and summed over every Java thread of the JVM (a Redis registry's work continues on the client's event loops and
 * the registry's own threads). Counted with the JVM's per-thread counters around a few runs of many pairs after a
 * warm-up of as many, so the counters' own cost (a few arrays per run) is lost in the division.
 *
 * <p>Per-thread counters miss threads that end during a run (none of the registries' threads do while in use) and
 * the JVM's own threads (GC, compiler), which are not Java threads: the figures are what the code under test
 * costs, not what the process costs.
 */
public final class LockCostCheck {

    private final com.sun.management.ThreadMXBean threads;
    private final int runs;

    /** @param runs measured runs per case, after one warm-up run */
    public LockCostCheck(int runs) {
        if (!(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean hotspot)
                || !hotspot.isThreadAllocatedMemorySupported() || !hotspot.isThreadCpuTimeSupported()) {
            throw new IllegalStateException("this JVM does not count CPU time and allocation per thread");
        }
        hotspot.setThreadAllocatedMemoryEnabled(true);
        hotspot.setThreadCpuTimeEnabled(true);
        this.threads = hotspot;
        this.runs = runs;
    }

    /** One lock+unlock pair; {@code i} counts the pairs of a run from 0. */
    @FunctionalInterface
    public interface Pair {

        void run(int i) throws Exception;
    }

    /** Runs {@code pair} {@code operations} times untimed, then {@link #runs} times measured. */
    public CostResult measure(String what, int operations, Pair pair) throws Exception {
        repeat(pair, operations); // warm-up: the JIT compiles the path, caches and pools fill
        List<CostResult.Run> measured = new ArrayList<>();
        for (int run = 0; run < runs; run++) {
            Snapshot before = snapshot();
            long start = System.nanoTime();
            repeat(pair, operations);
            long wall = System.nanoTime() - start;
            Snapshot after = snapshot();
            double n = operations;
            measured.add(new CostResult.Run(wall / n, (after.callerCpu - before.callerCpu) / n,
                    (after.callerBytes - before.callerBytes) / n, delta(before.cpu, after.cpu) / n,
                    delta(before.bytes, after.bytes) / n));
        }
        return new CostResult(what, operations, measured);
    }

    private static void repeat(Pair pair, int operations) throws Exception {
        for (int i = 0; i < operations; i++) {
            pair.run(i);
        }
    }

    /**
     * Every thread's counters, the caller's last: what reading them allocates (a few KiB) counts once per run, so
     * it is spread over the run's pairs.
     */
    private Snapshot snapshot() {
        long[] ids = threads.getAllThreadIds();
        Map<Long, Long> cpu = byThread(ids, threads.getThreadCpuTime(ids));
        Map<Long, Long> bytes = byThread(ids, threads.getThreadAllocatedBytes(ids));
        return new Snapshot(cpu, bytes, threads.getCurrentThreadCpuTime(), threads.getCurrentThreadAllocatedBytes());
    }

    private static Map<Long, Long> byThread(long[] ids, long[] values) {
        Map<Long, Long> byThread = new HashMap<>();
        for (int i = 0; i < ids.length; i++) {
            if (values[i] >= 0) { // -1: the thread ended meanwhile
                byThread.put(ids[i], values[i]);
            }
        }
        return byThread;
    }

    /** Summed over the threads alive at the end; a thread started during the run counts from zero. */
    private static long delta(Map<Long, Long> before, Map<Long, Long> after) {
        long sum = 0;
        for (Map.Entry<Long, Long> thread : after.entrySet()) {
            sum += thread.getValue() - before.getOrDefault(thread.getKey(), 0L);
        }
        return sum;
    }

    private record Snapshot(Map<Long, Long> cpu, Map<Long, Long> bytes, long callerCpu, long callerBytes) {
    }
}
