package dev.distlock.core.engine.hold;

import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * Every time rule of the engine, in one place. A hold is trusted locally until a deadline on this JVM's
 * monotonic clock: the moment its last confirmed acquire, hand-off or renewal was <em>sent</em>, plus the
 * lease it set, minus a margin for clock drift. The backend set the lease no earlier than the send, so the
 * key cannot expire before the local deadline unless the clocks drift apart by more than the margin (as in
 * Redlock: 1% of the lease plus 2ms). The rest follows from it: how much must be left for an acquisition
 * or a hand-off notice to count, when renewals and confirmations are due, how long they may take, how
 * waiters pace their polls and how long their queue entries live.
 */
public final class HoldClock {

    private static final long MAX_RETRY_DELAY_MILLIS = 1000;

    /** A hand-off notice is trusted without asking the store if at least half of its claim is left. */
    private static final int NOTICE_TRUST_DIVISOR = 2;
    /** A hand-off's claim is confirmed (extended to the full lease) a third into it. */
    private static final int CONFIRM_DIVISOR = 3;
    /** Renewals fall due on a grid of this fraction of their period. */
    private static final int RENEWAL_GRID_DIVISOR = 100;

    private HoldClock() {
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
    public static boolean validEnough(long validUntilNanos, long leaseMillis, long nowNanos) {
        return validUntilNanos - nowNanos >= leftToCountNanos(leaseMillis);
    }

    /**
     * How long after it was sent the reply to an acquisition with {@code leaseMillis} may come and still count
     * ({@link #validEnough}): the lease less its drift margin and the tenth that must be left. The shortest lease
     * ({@link dev.distlock.core.Lease#MIN}) is chosen so that this is a round trip on a busy machine.
     */
    static long replyAllowanceNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(leaseMillis - driftMillis(leaseMillis)) - leftToCountNanos(leaseMillis);
    }

    private static long leftToCountNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 10));
    }

    /**
     * How long an acquisition pauses before it tries again with a new token after a reply that came too late to
     * count ({@link #validEnough}) after {@code replyNanos}: as long as that reply took, since a store or process that slow would answer a try sent at once as late, but no longer than a
     * waiter sleeps between polls ({@code maxPollMillis}, at least a millisecond). So a caller whose replies keep
     * coming too late sends at most one try per two replies' time, never a stream of them.
     */
    public static long lateReplyPauseNanos(long replyNanos, long maxPollMillis) {
        long took = Math.max(TimeUnit.MILLISECONDS.toNanos(1), replyNanos);
        return Math.min(took, TimeUnit.MILLISECONDS.toNanos(maxPollMillis));
    }

    /**
     * When the renewal after one confirmed (or an acquisition) sent at {@code sentNanos} is due: a third of the lease
     * later, rounded down to a grid of a hundredth of that period (at least a millisecond) that all holds with the
     * same lease share, so that their renewals fall due at the same moments and go to the store together
     * ({@link RenewalBatches}). Rounding down renews a little early, never late.
     */
    public static long renewalDue(long sentNanos, long leaseMillis) {
        long period = TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 3));
        long grid = Math.max(TimeUnit.MILLISECONDS.toNanos(1), period / RENEWAL_GRID_DIVISOR);
        long due = sentNanos + period;
        return due - Math.floorMod(due, grid);
    }

    /**
     * How long a renewal may take before it counts as failed, whatever the client's own command timeout:
     * a quarter of the lease, so that a retry still fits before the deadline.
     */
    static long renewalTimeoutNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, leaseMillis / 4));
    }

    /**
     * The deadline of a hand-off notice with a claim of {@code claimMillis}, handed over {@code sinceLastTryMillis}
     * after the waiter's last try (both on the store's clock) whose command was sent at {@code lastSentNanos}: it
     * errs on the early side even when the notice is read late (a paused waiter).
     */
    public static long noticeValidUntil(long lastSentNanos, long sinceLastTryMillis, long claimMillis) {
        long millis = sinceLastTryMillis + claimMillis - driftMillis(claimMillis);
        return lastSentNanos + TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** Whether a notice valid until {@code validUntilNanos} has enough of its claim left to trust without asking. */
    public static boolean trustsNotice(long validUntilNanos, long claimMillis, long nowNanos) {
        return validUntilNanos - nowNanos >= TimeUnit.MILLISECONDS.toNanos(claimMillis) / NOTICE_TRUST_DIVISOR;
    }

    /** When a hand-off's claim, valid until {@code validUntilNanos}, is confirmed: a third into what is left of it. */
    public static long confirmationDue(long nowNanos, long validUntilNanos) {
        return nowNanos + Math.max(0, validUntilNanos - nowNanos) / CONFIRM_DIVISOR;
    }

    /**
     * How long a waiter's queue entry lives after its last try, and the claim lease of a hand-off to it: the
     * poll interval plus as much again (at least half a second), so a live waiter always asks again in time
     * and a dead one blocks a name for about twice this at most.
     */
    public static long waiterTimeoutMillis(long maxPollMillis) {
        return maxPollMillis + Math.max(500, maxPollMillis);
    }

    /**
     * How long a waiter sleeps when no hand-off is heard: until the holder's lease runs out if that comes first
     * ({@code holderLeaseMillis}, negative if unknown; {@link dev.distlock.core.spi.LockStore#NEVER_EXPIRES} if never), else the poll interval less up to a tenth of jitter so
     * waiters of many processes spread out.
     */
    public static long pollPauseNanos(RandomGenerator random, long maxPollMillis, long holderLeaseMillis) {
        long poll = maxPollMillis - random.nextLong(maxPollMillis / 10 + 1);
        long millis = holderLeaseMillis >= 0 ? Math.min(holderLeaseMillis, poll - 1) + 1 : poll;
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, millis));
    }

    /** Whether a pause of {@link #pollPauseNanos} ({@code pauseNanos}) lasts until the holder's lease runs out. */
    public static boolean pausesUntilLeaseEnd(long pauseNanos, long holderLeaseMillis) {
        // the lease end was chosen when the pause is its length: the holder's lease, plus the millisecond it rounds up
        return holderLeaseMillis >= 0 && holderLeaseMillis < Long.MAX_VALUE
                && pauseNanos == TimeUnit.MILLISECONDS.toNanos(Math.max(1, holderLeaseMillis + 1));
    }

    /** How soon a failed renewal is tried again: a tenth of the lease, at most a second. */
    static long retryDelayNanos(long leaseMillis) {
        return TimeUnit.MILLISECONDS.toNanos(Math.max(1, Math.min(leaseMillis / 10, MAX_RETRY_DELAY_MILLIS)));
    }
}
