package dev.distlock.core.support;

import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.ScheduledFuture;

/**
 * One acquisition in the backend: its token, fencing token and lease, who owns it locally, and whether it
 * has been released or found lost. Renewal and release synchronize on the hold, so a renewal never runs
 * after (or while) the hold is released.
 */
final class Hold {

    final NameState state;
    final String name;
    final String label;
    final String token;
    final long fencingToken;
    /** The lease renewals restore; {@code extend} changes it. */
    volatile long leaseMillis;
    final Instant acquiredAt;
    private final long acquiredNanos;

    final boolean renewed;

    /** The owning thread; {@code null} once detached. */
    volatile Thread owner;

    /** Re-entrant holds of the owner; only the owner touches it. */
    int count = 1;

    private boolean finished;
    private boolean lost;
    private ScheduledFuture<?> renewal;

    Hold(NameState state, String name, String label, String token, long fencingToken, long leaseMillis,
            boolean renewed) {
        this.state = state;
        this.name = name;
        this.label = label;
        this.token = token;
        this.fencingToken = fencingToken;
        this.leaseMillis = leaseMillis;
        this.renewed = renewed;
        this.acquiredAt = Instant.now();
        this.acquiredNanos = System.nanoTime();
        this.owner = Thread.currentThread();
    }

    Duration heldFor() {
        return Duration.ofNanos(System.nanoTime() - acquiredNanos);
    }

    /** An event about this hold: {@code elapsed} is how long it has been held. */
    LockEvent event(Throwable error) {
        return new LockEvent(name, label, fencingToken, heldFor(), error);
    }

    synchronized boolean isLost() {
        return lost;
    }

    synchronized boolean isActive() {
        return !finished && !lost;
    }

    synchronized void renewWith(ScheduledFuture<?> task) {
        if (finished || lost) {
            task.cancel(false);
        } else {
            renewal = task;
        }
    }

    /**
     * Records the loss; returns true the first time only, so the loss is reported once.
     */
    synchronized boolean markLost() {
        if (lost) {
            return false;
        }
        lost = true;
        stopRenewal();
        return true;
    }

    /**
     * Ends the hold locally before it is released in the backend: no renewal runs from now on.
     *
     * @return whether the hold had been found lost already
     */
    synchronized boolean finish() {
        finished = true;
        stopRenewal();
        return lost;
    }

    private void stopRenewal() {
        if (renewal != null) {
            renewal.cancel(false);
            renewal = null;
        }
    }
}
