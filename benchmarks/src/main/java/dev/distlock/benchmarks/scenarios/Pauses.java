package dev.distlock.benchmarks.scenarios;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/** Precise pauses: parking overshoots by tens of microseconds, which would skew a 2 ms hold by a few percent. */
final class Pauses {

    /** Parking ends this long before the deadline; the rest is spun. */
    private static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(50);

    private Pauses() {
    }

    /** Returns at {@code deadline} (a {@link System#nanoTime()} value) or just after it. */
    static void until(long deadline) {
        long left;
        while ((left = deadline - System.nanoTime()) > SPIN_NANOS) {
            LockSupport.parkNanos(left - SPIN_NANOS);
        }
        while (System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
    }
}
