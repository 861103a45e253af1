package dev.distlock.core.support;

import dev.distlock.core.LockBackendException;
import java.time.Duration;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps every hold of a registry honest about time. Each hold has one timer task, due at its next renewal
 * or its deadline, whichever comes first:
 * <ul>
 *   <li>a renewed hold (or a hand-off that still has to be confirmed) is renewed every third of its lease;
 *   the renewal runs on a pool thread, never on the timer, so one slow node or name cannot hold up the
 *   others, and it counts as failed after a quarter of the lease whatever the client's own timeout is;</li>
 *   <li>a failed renewal is tried again soon (a tenth of the lease, at most a second later);</li>
 *   <li>when the deadline passes without a confirmed renewal, or a renewal finds the token gone, the hold is
 *   lost at once.</li>
 * </ul>
 */
final class Watchdog {

    private final LockStore store;
    private final Listeners listeners;
    private final Losses losses;
    private final ScheduledExecutorService timer;
    private final ExecutorService calls;

    Watchdog(LockStore store, Listeners listeners, Losses losses, BackgroundThreads threads) {
        this.store = store;
        this.listeners = listeners;
        this.losses = losses;
        this.timer = threads.timer();
        this.calls = threads.calls();
    }

    /** Receives the holds found lost. */
    interface Losses {

        void lost(Hold hold, String reason);
    }

    /** Starts watching a new hold, or follows a lease that {@code extend} changed. */
    void watch(Hold hold) {
        synchronized (hold) {
            if (!hold.isActive()) {
                return;
            }
            long due = hold.validUntilNanos();
            if (hold.wantsRenewal() && !hold.renewing && hold.nextRenewalNanos - due < 0) {
                due = hold.nextRenewalNanos;
            }
            cancelTick(hold);
            try {
                hold.tick = timer.schedule(() -> tick(hold), Math.max(0, due - System.nanoTime()),
                        TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                // the registry is closed: its holds expire with their leases
            }
        }
    }

    /** Stops watching a hold that ended. */
    void unwatch(Hold hold) {
        synchronized (hold) {
            cancelTick(hold);
        }
    }

    private void tick(Hold hold) {
        long lease;
        int epoch;
        synchronized (hold) {
            hold.tick = null;
            if (!hold.isActive()) {
                return;
            }
            long now = System.nanoTime();
            if (hold.isPastDeadline(now)) {
                lease = -1;
                epoch = 0;
            } else if (hold.wantsRenewal() && !hold.renewing && now - hold.nextRenewalNanos >= 0) {
                hold.renewing = true;
                lease = hold.leaseMillis();
                epoch = hold.leaseEpoch;
            } else {
                lease = 0;
                epoch = 0;
            }
        }
        if (lease < 0) {
            losses.lost(hold, hold.expiryReason());
            return;
        }
        if (lease > 0) {
            renew(hold, lease, epoch);
        }
        watch(hold);
    }

    private void renew(Hold hold, long lease, int epoch) {
        long sent = System.nanoTime();
        AtomicBoolean settled = new AtomicBoolean();
        Future<?> call;
        try {
            call = calls.submit(() -> {
                boolean owned;
                try {
                    owned = store.renew(hold.name, hold.token, lease);
                } catch (RuntimeException failure) {
                    if (settled.compareAndSet(false, true)) {
                        renewalFailed(hold, lease, failure);
                    }
                    return;
                }
                if (settled.compareAndSet(false, true)) {
                    renewalAnswered(hold, owned, sent, lease, epoch);
                }
            });
        } catch (RejectedExecutionException closed) {
            return;
        }
        long timeout = HoldClock.renewalTimeoutNanos(lease);
        try {
            timer.schedule(() -> {
                if (settled.compareAndSet(false, true)) {
                    call.cancel(true);
                    renewalFailed(hold, lease, new TimeoutException("Redis did not answer the renewal within "
                            + Duration.ofNanos(timeout) + " (a quarter of the lease)"));
                }
            }, timeout, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            call.cancel(true);
        }
    }

    private void renewalAnswered(Hold hold, boolean owned, long sent, long lease, int epoch) {
        if (!owned) {
            synchronized (hold) {
                hold.renewing = false;
            }
            losses.lost(hold, "a renewal found that Redis no longer holds it under this hold's token");
            return;
        }
        hold.renewalConfirmed(sent, lease, epoch);
        watch(hold);
    }

    private void renewalFailed(Hold hold, long lease, Exception failure) {
        int streak = hold.renewalFailed(HoldClock.retryDelayNanos(lease));
        if (hold.isActive()) {
            listeners.renewalFailed(hold.event(new LockBackendException(hold.name, "renew the lease", failure)),
                    streak == 1);
        }
        watch(hold);
    }

    private static void cancelTick(Hold hold) {
        if (hold.tick != null) {
            hold.tick.cancel(false);
            hold.tick = null;
        }
    }
}
