package dev.distlock.core.support;

import java.util.concurrent.TimeUnit;

/**
 * The time rules of a hold, in one place. A hold is trusted locally until a deadline on this JVM's
 * monotonic clock: the moment its last confirmed acquire, hand-off or renewal was <em>sent</em>, plus the
 * lease it set, minus a margin for clock drift. The backend set the lease no earlier than the send, so the
 * key cannot expire before the local deadline unless the clocks drift apart by more than the margin (as in
 * Redlock: 1% of the lease plus 2ms).
 */
public final class LeaseTiming {

    private static final long MAX_RETRY_DELAY_MILLIS = 1000;

    private LeaseTiming() {
    }

    /** The drift margin of a lease: 1% plus 2ms, at most half the lease. */
    public static long driftMillis(long leaseMillis) {
        return Math.min(leaseMillis / 2, leaseMillis / 100 + 2);
    }

    /** The local deadline of a lease set by a command sent at {@code sentNanos}. */
    public static long validUntil(long sentNanos, long leaseMillis) {
        return sentNanos + TimeUnit.MILLISECONDS.toNanos(leaseMillis - driftMillis(leaseMillis));
    }

    /**
     * Whether an acquisition sent with {@code leaseMillis}, valid until {@code validUntilNanos}, has enough left at
     * {@code nowNanos} to count: a tenth of the lease. A reply that came later than that (a paused process, a slow
     * first connection) would hand the caller a hold that is lost, or nearly, before it can use it.
     */
    static boolean validEnough(long validUntilNanos, long leaseMillis, long nowNanos) {
        return validUntilNanos - nowNanos >= TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 10));
    }

    /** How long after a confirmed renewal was sent the next one is due: a third of the lease. */
    static long renewalPeriodNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 3));
    }

    /**
     * How long a renewal may take before it counts as failed, whatever the client's own command timeout:
     * a quarter of the lease, so that a retry still fits before the deadline.
     */
    static long renewalTimeoutNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 4));
    }

    /** How soon a failed renewal is tried again: a tenth of the lease, at most a second. */
    static long retryDelayNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(leaseMillis / 10, MAX_RETRY_DELAY_MILLIS)));
    }
}
