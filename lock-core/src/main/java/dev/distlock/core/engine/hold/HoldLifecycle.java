package dev.distlock.core.engine.hold;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockLostException;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.engine.store.Cleanup;
import dev.distlock.core.engine.store.StoreSends;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.FailureClassifier;
import dev.distlock.core.spi.StoreCapabilities;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * What happens to a hold once it is acquired: it starts (listeners hear of it, the watchdog watches it), and it
 * ends exactly once: released by its owner, found lost (by the watchdog, a renewal, an extend, a lease read or
 * the release), or given back as its registry closes. Its lease is {@link HoldLeases}'s. Each end gives the name's gate back and drops the hold from
 * its name's state; a loss is reported once and the key cleaned up in the background in case it is still there.
 */
public final class HoldLifecycle {

    /** Whether the store passes a release on to the next local caller's try in one call. */
    private final boolean passesOn;
    private final FailureClassifier failures;
    private final AsyncLockStore sends;
    /** How a blocking caller's commands go out (on its own thread), and a non-blocking caller's. */
    private final StoreSends blocking;
    private final StoreSends nonBlocking;
    private final NameTable names;
    private final Listeners listeners;
    private final Watchdog watchdog;
    private final Cleanup cleanup;
    private final EngineRuntime runtime;
    /** The store's waiter timeout, for the next caller's try sent with a release ({@link LocalHandOff}). */
    private final long waiterTimeoutMillis;

    public HoldLifecycle(StoreCapabilities offers, AsyncLockStore sends, AsyncLockStore callerSends, NameTable names,
            Listeners listeners, EngineRuntime runtime, long waiterTimeoutMillis) {
        this.passesOn = offers.passingOn().isPresent();
        this.failures = offers.failures();
        this.blocking = StoreSends.blocking(callerSends);
        this.nonBlocking = StoreSends.nonBlocking(sends, runtime);
        this.waiterTimeoutMillis = waiterTimeoutMillis;
        this.sends = sends;
        this.names = names;
        this.listeners = listeners;
        this.watchdog = new Watchdog(sends, listeners, this::lose, runtime);
        this.cleanup = new Cleanup(sends, runtime);
        this.runtime = runtime;
    }

    public Cleanup cleanup() {
        return cleanup;
    }

    Watchdog watchdog() {
        return watchdog;
    }

    EngineRuntime runtime() {
        return runtime;
    }

    /** What the store's failures mean. */
    public FailureClassifier failures() {
        return failures;
    }

    /** How a blocking caller's commands go out: on its own thread. */
    public StoreSends blocking() {
        return blocking;
    }

    /** How a non-blocking caller's commands go out: without waiting, answered on the step executors. */
    public StoreSends nonBlocking() {
        return nonBlocking;
    }

    /** How the hold's commands go out without waiting. */
    AsyncLockStore sends() {
        return sends;
    }

    /** How the acquisition that made a hold went: how long it waited, and what let its try happen. */
    public interface Acquired {

        Duration waited();

        WaitEnd waitEnd();
    }

    /** A new hold, made by {@code acquisition}: listeners hear of it before the watchdog can report it lost. */
    public void start(Hold hold, Acquired acquisition) {
        hold.waitEnded(acquisition.waitEnd());
        hold.state.add(hold);
        if (listeners.any()) {
            listeners.acquired(new LockEvent(hold.name, hold.label, hold.fencingToken, acquisition.waited(), null,
                    hold.waitEnd(), hold.kind()));
        }
        watchdog.start(hold);
    }

    /**
     * Ends the hold: locally at once (no renewal runs from now on), and in the backend by a release or, for a
     * positive {@code delayMillis}, by leaving the lock to expire after that long. The next local waiter goes then;
     * where the store can, its first try goes with the release, in one call ({@link LocalHandOff}). A release the store
     * refused (it did not run: a slot migrating, a failover) is sent again until the hold's local deadline: until then
     * only the release can free the name, from then on its lease may have, and the clean-up takes over. The caller's
     * thread makes the commands and runs the steps ({@link ReleaseSteps}) while it waits ({@link BlockingRelease}); an
     * interrupt does not end the wait (the flag is set again on return).
     *
     * @throws LockLostException if the hold was lost (before, or as the release found)
     * @throws LockBackendException if the backend failed; a release is then retried in the background
     */
    public void release(Hold hold, long delayMillis) {
        BlockingRelease wait = new BlockingRelease(runtime);
        wait.await(release(hold, delayMillis, blocking, wait.steps, wait));
    }

    /**
     * {@link #release(Hold, long)} without waiting for the store: the stage completes when it answered, with the same
     * outcome, on one of the registry's step threads (never the store client's).
     */
    public CompletionStage<Void> releaseAsync(Hold hold, long delayMillis) {
        return release(hold, delayMillis, nonBlocking, Runnable::run, null);
    }

    private CompletableFuture<Void> release(Hold hold, long delayMillis, StoreSends via, Executor steps,
            Runnable callerInterrupted) {
        try {
            ending(hold);
        } catch (RuntimeException lost) {
            ended(hold, null);
            return CompletableFuture.failedFuture(lost);
        }
        LocalHandOff handOff = passesOn && delayMillis <= 0 ? LocalHandOff.take(hold, runtime, waiterTimeoutMillis)
                : null;
        return new ReleaseSteps(this, hold, delayMillis, handOff, via, steps, callerInterrupted).start().done();
    }

    /** The local end of a release: the hold ends here at once; fails if it was lost, before or by its deadline. */
    private void ending(Hold hold) {
        boolean active = hold.end();
        watchdog.unwatch(hold);
        if (!active) {
            throw new LockLostException(hold.name, hold.lostReason());
        }
        if (hold.isPastDeadline(runtime.nanoTime())) {
            reportLoss(hold, hold.expiryReason());
            cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), false);
            throw new LockLostException(hold.name, hold.expiryReason());
        }
    }

    /** What the store's answer to a release means: released, or found lost (thrown). */
    void released(Hold hold, boolean released) {
        if (!released) {
            String reason = "the release found that the store no longer holds it under this hold's token";
            reportLoss(hold, reason);
            throw new LockLostException(hold.name, reason);
        }
        if (listeners.any()) {
            listeners.released(hold.event(null));
        }
    }

    /** A release got no answer: it may have run, so the background clean-up finishes it; never a loss. */
    LockBackendException releaseFailed(Hold hold, long delayMillis, Throwable failure) {
        listeners.releaseFailed(hold.event(failure));
        if (delayMillis > 0) {
            return new LockBackendException(hold.name, "leave the lock to expire after "
                    + Duration.ofMillis(delayMillis) + " (it expires with its lease at the latest)", failure);
        }
        cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), true);
        return new LockBackendException(hold.name, "release (it is retried in the background; the lock expires "
                + "with its lease at the latest)", failure);
    }

    /**
     * After the release, whatever its outcome: the next local waiter may go (the one {@code handOff} passed the lock
     * to, if any), and the name's state lets go of it.
     */
    void ended(Hold hold, LocalHandOff handOff) {
        if (handOff != null) {
            handOff.letIn();
        } else {
            hold.giveBackGate();
        }
        hold.state.remove(hold);
        names.release(hold.state, hold.name);
    }

    /**
     * Gives a hold back because its registry closes: it ends here as lost ({@code reason}, which its owner's
     * {@code unlock()} or {@code verifyHeld()} reports; no listener hears of a loss), and is released in the store
     * without waiting, so that a waiter anywhere gets it at once rather than a lease later. Completes when the store
     * answered (a failed release is left to the lease); at once for a hold that had already ended or was lost.
     */
    public CompletableFuture<Void> giveBack(Hold hold, String reason) {
        if (!hold.markLost(reason)) {
            return CompletableFuture.completedFuture(null);
        }
        watchdog.unwatch(hold);
        hold.giveBackGate();
        return sends.release(hold.name, hold.token, hold.fencingToken).toCompletableFuture()
                .handle((released, failure) -> null);
    }

    /** Re-entry counts only on a hold still valid: else the hold is lost (if not known yet) and re-entry fails. */
    public void requireHeld(Hold hold) {
        if (!stillHeld(hold)) {
            throw new LockLostException(hold.name, hold.lostReason());
        }
    }

    /** Whether the hold is still valid locally; a passed deadline not noticed yet is a loss, reported now. */
    boolean stillHeld(Hold hold) {
        if (hold.isHeld()) {
            return true;
        }
        if (hold.isActive()) {
            lose(hold, hold.expiryReason());
        }
        return false;
    }

    /**
     * The hold is lost: reported once, the local gate given back so other threads may go to the backend,
     * and its key released in the background in case it is still there.
     */
    void lose(Hold hold, String reason) {
        if (!hold.markLost(reason)) {
            return;
        }
        watchdog.unwatch(hold);
        reportLoss(hold, reason);
        hold.giveBackGate();
        cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), false);
    }

    private void reportLoss(Hold hold, String reason) {
        listeners.lost(hold.event(new LockLostException(hold.name, reason)));
    }
}
