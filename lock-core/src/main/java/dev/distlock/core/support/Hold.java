package dev.distlock.core.support;

import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;
import java.util.function.LongFunction;

/**
 * One acquisition in the backend and everything this process knows of it, as a state machine: its token and
 * fencing token, who owns it here, until when it may be trusted, and its phase.
 *
 * <pre>
 *            markLost()                         end()
 *   LOST  &lt;------------  HELD (deadline, lease)  -----------&gt;  ENDED
 *                        |  ^ leaseSet / leaseMaybeSet (extend)
 *                        |  | renewalConfirmed / renewalFailed (watchdog)
 *                        +--+
 * </pre>
 *
 * <p>The phase moves once, from held to lost or ended (one compare-and-set each, which says whether it
 * happened), so a hold has exactly one end: a loss is reported once and never after the owner released. While
 * held, every change of the lease is one synchronized step here: the deadline, the lease renewals restore, the
 * epoch that makes a renewal sent before an {@code extend} stale, whether a hand-off's claim still needs
 * confirming, and when the watchdog looks next ({@link #look}). The time rules behind them are
 * {@link HoldClock}'s. Questions about the hold ({@link #isHeld()}, the count, the fencing token) read this
 * state and never wait for the backend; no monitor is held across a backend call. The hold owns its name's
 * local gate until it ends or is lost, and gives it back exactly once.
 */
final class Hold {

    private enum Phase { HELD, LOST, ENDED }

    private static final VarHandle PHASE;
    private static final VarHandle OWNS_GATE;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            PHASE = lookup.findVarHandle(Hold.class, "phase", Phase.class);
            OWNS_GATE = lookup.findVarHandle(Hold.class, "ownsGate", boolean.class);
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    final NameState state;
    final String name;
    final String label;
    final String token;
    final long fencingToken;
    final boolean renewed;
    final Instant acquiredAt = Instant.now();
    private final long acquiredNanos = System.nanoTime();

    /** The owning thread; {@code null} until a blocking caller takes it, and once detached. */
    volatile Thread owner;

    /** Re-entrant holds of the owner; only the owner touches it. */
    int count = 1;

    /** The phase, moved by compare-and-set ({@link #PHASE}); a field, not an atomic object: one per lock call. */
    private volatile Phase phase = Phase.HELD;
    private volatile boolean ownsGate = true;
    private volatile String lostReason;

    /** The local deadline (monotonic clock); written under the monitor, read without it. */
    private volatile long validUntilNanos;
    /** The lease renewals restore; {@code extend} changes it. */
    private volatile long leaseMillis;

    // the renewal bookkeeping, guarded by this
    /** Counts lease changes by {@code extend}, so a renewal sent before one cannot move the deadline. */
    private int leaseEpoch;
    private long nextRenewalNanos;
    private boolean renewing;
    /** A hand-off gave only a claim lease: the full lease must be confirmed at once. */
    private boolean confirmPending;
    private int failedRenewals;
    /** The watchdog's next look at this hold. */
    private ScheduledFuture<?> tick;

    /**
     * @param validUntilNanos the local deadline of the lease the backend set
     * @param confirmPending whether that lease is only a hand-off's claim, to be extended to the full lease
     * @param nextRenewalNanos when the first renewal (or the confirmation) is due
     */
    Hold(NameState state, String name, String label, String token, long fencingToken, long leaseMillis,
            boolean renewed, long validUntilNanos, boolean confirmPending, long nextRenewalNanos) {
        this.state = state;
        this.name = name;
        this.label = label;
        this.token = token;
        this.fencingToken = fencingToken;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.validUntilNanos = validUntilNanos;
        this.confirmPending = confirmPending;
        this.nextRenewalNanos = nextRenewalNanos;
    }

    /** Whether the hold is neither lost nor ended and its deadline has not passed. */
    boolean isHeld() {
        return phase == Phase.HELD && !isPastDeadline(System.nanoTime());
    }

    /** Whether the hold is neither lost nor ended (its deadline may have passed unnoticed). */
    boolean isActive() {
        return phase == Phase.HELD;
    }

    boolean isPastDeadline(long nowNanos) {
        return nowNanos - validUntilNanos >= 0;
    }

    long validUntilNanos() {
        return validUntilNanos;
    }

    long leaseMillis() {
        return leaseMillis;
    }

    /** Whether the watchdog must send renewals: for a renewed lease, or to confirm a hand-off. */
    private boolean wantsRenewal() {
        return renewed || confirmPending;
    }

    /** The watchdog's look at the hold at {@code nowNanos}: what is due. A due renewal is marked in flight. */
    synchronized HoldLook look(long nowNanos) {
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

    /** When the watchdog must look next: the deadline, or the next renewal if one is due before it. */
    private long nextLookNanos() {
        long due = validUntilNanos;
        if (wantsRenewal() && !renewing && nextRenewalNanos - due < 0) {
            due = nextRenewalNanos;
        }
        return due;
    }

    /**
     * Schedules the watchdog's next look with {@code scheduler} (given the delay in nanoseconds), replacing the one
     * planned; nothing once the hold ended or was lost.
     */
    synchronized void planNextLook(LongFunction<ScheduledFuture<?>> scheduler) {
        cancelNextLook();
        if (isActive()) {
            tick = scheduler.apply(Math.max(0, nextLookNanos() - System.nanoTime()));
        }
    }

    /** Cancels the watchdog's next look: the hold ended. */
    synchronized void cancelNextLook() {
        if (tick != null) {
            tick.cancel(false);
            tick = null;
        }
    }

    /** A renewal found the token gone: no renewal is in flight any more (the loss follows). */
    synchronized void renewalRefused() {
        renewing = false;
    }

    /** A renewal sent at {@code sentNanos} was confirmed; ignored if the lease changed since it was sent. */
    synchronized void renewalConfirmed(long sentNanos, long lease, int epoch) {
        renewing = false;
        failedRenewals = 0;
        if (epoch == leaseEpoch) {
            validUntilNanos = Math.max(validUntilNanos, HoldClock.validUntil(sentNanos, lease));
            nextRenewalNanos = sentNanos + HoldClock.renewalPeriodNanos(lease);
            confirmPending = false;
        }
    }

    /** A renewal failed or did not answer in time: the next one goes out after {@code delayNanos}. */
    synchronized int renewalFailed(long delayNanos) {
        renewing = false;
        nextRenewalNanos = System.nanoTime() + delayNanos;
        return ++failedRenewals;
    }

    /**
     * {@code extend} set the lease to {@code lease} by a command sent at {@code sentNanos}: the deadline and
     * the renewals follow it, shorter or longer.
     *
     * @return whether the hold was still active
     */
    synchronized boolean leaseSet(long sentNanos, long lease) {
        if (!isActive()) {
            return false;
        }
        leaseEpoch++;
        leaseMillis = lease;
        validUntilNanos = HoldClock.validUntil(sentNanos, lease);
        nextRenewalNanos = sentNanos + HoldClock.renewalPeriodNanos(lease);
        confirmPending = false;
        return true;
    }

    /**
     * An {@code extend} to {@code lease}, sent at {@code sentNanos}, failed without an answer: it may have run. The
     * hold counts with the shorter of its old and the new lease, and a renewal sent before it can no longer move
     * the deadline (it may have reached the store before the extend that cut it back).
     */
    synchronized void leaseMaybeSet(long sentNanos, long lease) {
        leaseEpoch++;
        validUntilNanos = Math.min(validUntilNanos, HoldClock.validUntil(sentNanos, lease));
    }

    /** Why the hold is not held (any more): the recorded loss, or its passed deadline. */
    String lostReason() {
        String reason = lostReason;
        return reason != null ? reason : expiryReason();
    }

    /** What it means that the deadline passed, for this kind of hold. */
    String expiryReason() {
        Duration lease = Duration.ofMillis(leaseMillis);
        if (confirmPending) {
            return "the hand-off to it was not confirmed with the store within its claim lease";
        }
        return renewed
                ? "no renewal of its lease of " + lease + " was confirmed by the store in time"
                : "its fixed lease of " + lease + " ran out";
    }

    /** Records the loss; true the first time only, and never after the hold ended, so it is reported once. */
    boolean markLost(String reason) {
        if (!PHASE.compareAndSet(this, Phase.HELD, Phase.LOST)) {
            return false;
        }
        lostReason = reason;
        return true;
    }

    /** Ends the hold locally (its release follows); false if it had been found lost before. */
    boolean end() {
        return PHASE.compareAndSet(this, Phase.HELD, Phase.ENDED);
    }

    /** Lets the next thread of this registry at the name; only the first call does. */
    void giveBackGate() {
        if (OWNS_GATE.compareAndSet(this, true, false)) {
            state.gate.leave();
        }
    }

    Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredNanos);
    }

    /** An event about this hold: {@code elapsed} is how long it has been held. */
    LockEvent event(Throwable error) {
        return new LockEvent(name, label, fencingToken, heldFor(), error);
    }
}
