package dev.distlock.core.engine.hold;

import dev.distlock.core.runtime.EngineExecutors;
import java.time.Duration;

/**
 * How long a {@link Hold} may be trusted here, and the renewals that keep it so ({@code Hold}'s base): the local
 * deadline, the lease renewals restore, the epoch that makes a renewal sent before an {@code extend} stale, whether
 * a hand-off's claim still needs confirming, and when the {@link Watchdog} looks next. Every change is one
 * synchronized step; the deadline and lease are read without the monitor. The time rules are {@link HoldClock}'s.
 */
public abstract class TrustedLease {

    /** Whether renewals keep the lease alive (else it is fixed and runs out). */
    public final boolean renewed;

    /** The local deadline (monotonic clock); written under the monitor, read without it. */
    private volatile long validUntilNanos;
    /** The lease renewals restore; {@code extend} changes it. */
    private volatile long leaseMillis;

    // guarded by this
    /** Counts lease changes by {@code extend}, so a renewal sent before one cannot move the deadline. */
    private int leaseEpoch;
    private long nextRenewalNanos;
    private boolean renewing;
    /** A hand-off gave only a claim lease: the full lease must be confirmed at once. */
    private boolean confirmPending;
    private int failedRenewals;
    /** The watchdog's next look. */
    private EngineExecutors.Scheduled tick;

    /**
     * @param validUntilNanos the local deadline of the lease the backend set
     * @param confirmPending whether that lease is only a hand-off's claim, to be extended to the full lease
     * @param nextRenewalNanos when the first renewal (or the confirmation) is due
     */
    public TrustedLease(long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending,
            long nextRenewalNanos) {
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.validUntilNanos = validUntilNanos;
        this.confirmPending = confirmPending;
        this.nextRenewalNanos = nextRenewalNanos;
    }

    /** Whether the hold is neither lost nor ended: only such a lease changes or is looked at. */
    protected abstract boolean isActive();

    /** Asks {@code watchdog} to look at this hold after {@code delayNanos}. */
    protected abstract EngineExecutors.Scheduled scheduleLook(Watchdog watchdog, long delayNanos);

    final boolean isPastDeadline(long nowNanos) {
        return nowNanos - validUntilNanos >= 0;
    }

    public final long validUntilNanos() {
        return validUntilNanos;
    }

    final long leaseMillis() {
        return leaseMillis;
    }

    /**
     * Whether the lease may still be answered to a caller at {@code nowNanos}: its deadline has not passed and, unless
     * renewals or a hand-off's confirmation will restore it, a tenth of it is left ({@link HoldClock#validEnough}), as
     * an acquisition's reply must leave. A hand-off's short claim counts: its confirmation is on its way.
     */
    public final synchronized boolean stillCounts(long nowNanos) {
        return !isPastDeadline(nowNanos)
                && (wantsRenewal() || HoldClock.validEnough(validUntilNanos, leaseMillis, nowNanos));
    }

    /** Whether the watchdog must send renewals: for a renewed lease, or to confirm a hand-off. */
    private boolean wantsRenewal() {
        return renewed || confirmPending;
    }

    /** The watchdog's look at {@code nowNanos}: what is due. A due renewal is marked in flight. */
    public final synchronized HoldLook look(long nowNanos) {
        tick = null;
        if (!isActive()) {
            return HoldLook.NOTHING;
        }
        if (isPastDeadline(nowNanos)) {
            return HoldLook.LOSS;
        }
        if (wantsRenewal() && !renewing && nowNanos - nextRenewalNanos >= 0) {
            renewing = true;
            return HoldLook.renewal(leaseMillis, leaseEpoch);
        }
        return HoldLook.LATER;
    }

    /** When the watchdog must look next ({@link #nextLookNanos}). */
    final synchronized long nextLookAt() {
        return nextLookNanos();
    }

    /** When the watchdog must look next: the deadline, or the next renewal if one is due before it. */
    private long nextLookNanos() {
        long due = validUntilNanos;
        if (wantsRenewal() && !renewing && nextRenewalNanos - due < 0) {
            due = nextRenewalNanos;
        }
        return due;
    }

    /** Schedules the watchdog's next look, replacing the one planned; nothing once the hold ended or was lost. */
    public final synchronized void planNextLook(Watchdog watchdog) {
        cancelNextLook();
        if (isActive()) {
            tick = scheduleLook(watchdog, Math.max(0, nextLookNanos() - watchdog.nanoTime()));
        }
    }

    /** Cancels the watchdog's next look: the hold ended. */
    public final synchronized void cancelNextLook() {
        if (tick != null) {
            tick.cancel();
            tick = null;
        }
    }

    /** A renewal found the token gone: no renewal is in flight any more (the loss follows). */
    final synchronized void renewalRefused() {
        renewing = false;
    }

    /** A renewal sent at {@code sentNanos} was confirmed; ignored if the lease changed since it was sent. */
    final synchronized void renewalConfirmed(long sentNanos, long lease, int epoch) {
        renewing = false;
        failedRenewals = 0;
        if (epoch == leaseEpoch) {
            validUntilNanos = Math.max(validUntilNanos, HoldClock.validUntil(sentNanos, lease));
            nextRenewalNanos = HoldClock.renewalDue(sentNanos, lease);
            confirmPending = false;
        }
    }

    /** A renewal failed or did not answer in time ({@code nowNanos}): the next one goes out after {@code delayNanos}. */
    public final synchronized int renewalFailed(long nowNanos, long delayNanos) {
        renewing = false;
        nextRenewalNanos = nowNanos + delayNanos;
        return ++failedRenewals;
    }

    /**
     * {@code extend} set the lease to {@code lease} by a command sent at {@code sentNanos}: the deadline and
     * the renewals follow it, shorter or longer.
     *
     * @return whether the hold was still active
     */
    final synchronized boolean leaseSet(long sentNanos, long lease) {
        if (!isActive()) {
            return false;
        }
        leaseEpoch++;
        leaseMillis = lease;
        validUntilNanos = HoldClock.validUntil(sentNanos, lease);
        nextRenewalNanos = HoldClock.renewalDue(sentNanos, lease);
        confirmPending = false;
        return true;
    }

    /**
     * An {@code extend} to {@code lease}, sent at {@code sentNanos}, failed without an answer: it may have run. The
     * hold counts with the shorter of its old and the new lease, and a renewal sent before it can no longer move
     * the deadline (it may have reached the store before the extend that cut it back).
     */
    final synchronized void leaseMaybeSet(long sentNanos, long lease) {
        leaseEpoch++;
        validUntilNanos = Math.min(validUntilNanos, HoldClock.validUntil(sentNanos, lease));
    }

    /** What it means that the deadline passed, for this kind of lease. */
    public final String expiryReason() {
        Duration lease = Duration.ofMillis(leaseMillis);
        if (confirmPending) {
            return "the hand-off to it was not confirmed with the store within its claim lease";
        }
        return renewed
                ? "no renewal of its lease of " + lease + " was confirmed by the store in time"
                : "its fixed lease of " + lease + " ran out";
    }
}
