package dev.distlock.core.engine.hold;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.concurrent.RejectedExecutionException;

/**
 * Keeps every hold of a registry honest about time. Each hold has one timer task, due at its next renewal
 * or its deadline, whichever comes first (a new hold's first one, if far, planned a little later with other new
 * holds', {@link FirstLooks}):
 * <ul>
 *   <li>a renewed hold (or a hand-off that still has to be confirmed) is renewed every third of its lease, with
 *   the other holds due at the same moment in one store call ({@link RenewalBatches}); the renewal is sent without
 *   waiting (on the store's asynchronous client, or a call thread), never waited for on the timer, so one slow node
 *   or name cannot hold up the others, and it counts as failed after a quarter of the lease whatever the client's
 *   own timeout is;</li>
 *   <li>a failed renewal is tried again soon (a tenth of the lease, at most a second later);</li>
 *   <li>when the deadline passes without a confirmed renewal, or a renewal finds the token gone, the hold is
 *   lost at once.</li>
 * </ul>
 */
public final class Watchdog {

    private final Listeners listeners;
    private final Losses losses;
    private final EngineRuntime runtime;
    private final RenewalBatches renewals;
    private final FirstLooks firstLooks;

    public Watchdog(AsyncLockStore sends, Listeners listeners, Losses losses, EngineRuntime runtime) {
        this.listeners = listeners;
        this.losses = losses;
        this.runtime = runtime;
        this.renewals = new RenewalBatches(sends, runtime, this);
        this.firstLooks = new FirstLooks(this, runtime);
    }

    /** Receives the holds found lost. */
    public interface Losses {

        void lost(Hold hold, String reason);
    }

    /**
     * Starts watching a new hold, just made: its first look planned now, or with the others' ({@link FirstLooks}),
     * as far after the hold's start as it is due (no clock read of its own).
     */
    void start(Hold hold) {
        if (FirstLooks.waits(hold.nextLookAt() - hold.acquiredNanos())) {
            firstLooks.add(hold);
        } else {
            watch(hold);
        }
    }

    /** Plans the next look at a hold: a new one, or one whose lease {@code extend} or a renewal changed. */
    void watch(Hold hold) {
        try {
            hold.planNextLook(this);
        } catch (RejectedExecutionException closed) {
            // the registry is closed: its holds expire with their leases
        }
    }

    /** Schedules the watchdog's look at {@code hold} after {@code delayNanos}. */
    EngineExecutors.Scheduled lookAfter(Hold hold, long delayNanos) {
        return runtime.schedule(() -> look(hold), delayNanos);
    }

    /** The monotonic time now. */
    long nanoTime() {
        return runtime.nanoTime();
    }

    /** Stops watching a hold that ended. */
    void unwatch(Hold hold) {
        hold.cancelNextLook();
    }

    private void look(Hold hold) {
        HoldLook look = hold.look(runtime.nanoTime());
        switch (look.due()) {
            case NOTHING -> { }
            case LOSS -> losses.lost(hold, hold.expiryReason());
            case RENEWAL -> {
                renewals.renew(hold, look.leaseMillis(), look.epoch());
                watch(hold);
            }
            case LATER -> watch(hold);
        }
    }

    /** A renewal sent at {@code sent} was answered: the hold is {@code owned} or lost. */
    void renewalAnswered(Hold hold, boolean owned, long sent, long lease, int epoch) {
        if (!owned) {
            hold.renewalRefused();
            losses.lost(hold, "a renewal found that the store no longer holds it under this hold's token");
            return;
        }
        hold.renewalConfirmed(sent, lease, epoch);
        watch(hold);
    }

    /** A renewal failed or did not answer in time: it is tried again soon. */
    void renewalFailed(Hold hold, long lease, Throwable failure) {
        int streak = hold.renewalFailed(runtime.nanoTime(), HoldClock.retryDelayNanos(lease));
        if (hold.isActive()) {
            listeners.renewalFailed(hold.event(new LockBackendException(hold.name, "renew the lease", failure)),
                    streak == 1);
        }
        watch(hold);
    }
}
