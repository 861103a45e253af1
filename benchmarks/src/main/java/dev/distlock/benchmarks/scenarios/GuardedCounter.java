package dev.distlock.benchmarks.scenarios;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one key protects: a counter incremented without atomicity, so that lost updates show when two threads
 * are inside at once, and a holder count that catches two holders directly.
 */
final class GuardedCounter {

    private final AtomicInteger holders = new AtomicInteger();
    private final LongAdder overlaps = new LongAdder();
    private long value; // deliberately plain: only the lock makes read-then-write safe

    /** Enters the critical section and increments the counter the unsafe way. */
    void enterAndIncrement() {
        if (holders.incrementAndGet() != 1) {
            overlaps.increment();
        }
        long read = value;
        value = read + 1;
    }

    /** Leaves the critical section, before the lock is released. */
    void leave() {
        holders.decrementAndGet();
    }

    /** The counter; read after all threads have finished. */
    long value() {
        return value;
    }

    /** How many times a thread entered while another was inside. */
    long overlaps() {
        return overlaps.sum();
    }
}
