package dev.distlock.shedlock;

import dev.distlock.core.Lease;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;

/**
 * The time rules of one ShedLock lock, as ShedLock counts them: from the configuration's creation, on ShedLock's
 * clock ({@link ClockProvider}). The lock ends at {@code lockAtMostUntil}, where its fixed lease in the store ends;
 * an unlock before {@code lockAtLeastUntil} leaves it taken until then.
 */
final class ShedLockWindow {

    /**
     * The shortest lease a lock is acquired with. distlock hands out no hold whose lease ran out, or nearly, before
     * the acquisition's reply came (the reply must leave a tenth of the lease): a {@code lockAtMostFor} of a few
     * milliseconds would never be granted, one of a few dozen not on a slow first connection. A shorter window is
     * acquired with this lease and then set to what is left of it (one more command).
     */
    static final Duration SHORTEST_ACQUIRING_LEASE = Duration.ofSeconds(1);

    private final Instant lockAtLeastUntil;
    private final Duration lease;
    private final long endsAtNanos;

    private ShedLockWindow(LockConfiguration configuration) {
        Instant now = ClockProvider.now();
        long startNanos = System.nanoTime();
        Duration untilAtMost = Duration.between(now, configuration.getLockAtMostUntil());
        this.lockAtLeastUntil = configuration.getLockAtLeastUntil();
        this.lease = atLeastTheShortestLease(untilAtMost.toMillis());
        this.endsAtNanos = startNanos + Math.max(0, untilAtMost.toNanos());
    }

    /** The window of a lock taken (or extended) now with {@code configuration}. */
    static ShedLockWindow startingNow(LockConfiguration configuration) {
        return new ShedLockWindow(configuration);
    }

    /** The fixed lease in the store from now: until {@code lockAtMostUntil} (the shortest lease if that has passed). */
    Duration lease() {
        return lease;
    }

    /** The lease to acquire with: {@link #lease()}, or {@link #SHORTEST_ACQUIRING_LEASE} if that is shorter. */
    Duration acquiringLease() {
        return isShorterThanAnAcquiringLease() ? SHORTEST_ACQUIRING_LEASE : lease;
    }

    /** Whether the lease acquired with must be cut to {@link #leaseLeft()} once acquired. */
    boolean isShorterThanAnAcquiringLease() {
        return lease.compareTo(SHORTEST_ACQUIRING_LEASE) < 0;
    }

    /** What is left of the window now, rounded up to the millisecond (the shortest lease if it has ended). */
    Duration leaseLeft() {
        long nanos = endsAtNanos - System.nanoTime();
        return atLeastTheShortestLease(nanos <= 0 ? 0 : TimeUnit.NANOSECONDS.toMillis(nanos + 999_999));
    }

    /** Whether {@code lockAtMostUntil} has passed: for ShedLock the lock has expired. */
    boolean hasEnded() {
        return System.nanoTime() - endsAtNanos >= 0;
    }

    /** How long an unlock now leaves the lock taken: what is left of {@code lockAtLeastFor}, whole milliseconds. */
    Duration keptAfterUnlock() {
        long millis = Duration.between(ClockProvider.now(), lockAtLeastUntil).toMillis();
        return millis > 0 ? Duration.ofMillis(millis) : Duration.ZERO;
    }

    private static Duration atLeastTheShortestLease(long millis) {
        return millis < Lease.MIN.toMillis() ? Lease.MIN : Duration.ofMillis(millis);
    }
}
