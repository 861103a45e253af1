package dev.distlock.benchmarks.scenarios;

import java.util.concurrent.TimeUnit;

/**
 * The shape of a measurement.
 *
 * @param threads how many threads lock and unlock in a loop
 * @param clientPerThread whether each thread has its own client (a process each) or all share one
 * @param sharedKey whether all threads lock one key or each its own
 * @param holdNanos how long a thread keeps the lock after the counter increment
 * @param restNanos how long a thread pauses outside the lock before trying again
 */
public record Workload(int threads, boolean clientPerThread, boolean sharedKey, long holdNanos, long restNanos) {

    /** Locks per second if the lock were handed over in no time: one hold after another; 0 if no hold. */
    public double idealOpsPerSecond() {
        return holdNanos > 0 ? TimeUnit.SECONDS.toNanos(1) / (double) holdNanos : 0;
    }
}
