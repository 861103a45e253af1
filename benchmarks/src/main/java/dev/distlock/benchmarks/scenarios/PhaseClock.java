package dev.distlock.benchmarks.scenarios;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Starts all workers of a phase at one moment, once every thread is running, and tells them the deadline. */
final class PhaseClock {

    private final CountDownLatch ready;
    private final CountDownLatch go = new CountDownLatch(1);
    private final long durationNanos;
    private volatile long startNanos;

    PhaseClock(int threads, long durationNanos) {
        this.ready = new CountDownLatch(threads);
        this.durationNanos = durationNanos;
    }

    /** Called by each worker: waits for the start and returns the deadline. */
    long awaitStart() {
        ready.countDown();
        try {
            go.await();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return System.nanoTime(); // no time at all: the worker ends at once
        }
        return startNanos + durationNanos;
    }

    /** Called by the coordinator: waits until all workers are ready, then starts them; returns the deadline. */
    long start() throws InterruptedException {
        if (!ready.await(1, TimeUnit.MINUTES)) {
            throw new IllegalStateException("workers did not start within a minute");
        }
        startNanos = System.nanoTime();
        go.countDown();
        return startNanos + durationNanos;
    }
}
