package dev.distlock.core.engine.hold;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.engine.store.StoreSends;
import dev.distlock.core.spi.StoreFailure;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One release of a hold as steps, the same for every caller: the release (or a hand-off with the next caller's
 * try, or, with a delay, the lease left to expire) is sent again while the store refuses it without running it,
 * until the hold's local deadline; its answer is dealt with ({@link HoldLifecycle}'s rules), then the hold ends,
 * before {@link #done()} completes. A non-blocking caller's commands go out without waiting and its steps run on
 * the registry's executors; a blocking caller's go out on its own thread, which runs the steps while it waits
 * ({@link HoldLifecycle#release(Hold, long)}). An interrupt that breaks a blocking caller's wait for an answer does
 * not end the release: the command may have run, so it is sent again without the interrupt, without blocking, and
 * the caller waits for that at most the hold's lease; a second send that finds the lock no longer held under the
 * token then follows a first one that may have released it, and is not a loss.
 */
public final class ReleaseSteps {

    private final HoldLifecycle holds;
    private final Hold hold;
    private final long delayMillis;
    /** Where the steps run: a blocking caller's own thread, or at once where an answer or the timer hands them on. */
    private final Executor steps;
    /**
     * Told when an interrupt broke a blocking caller's wait for an answer (the caller sets its flag again when it
     * stops waiting); {@code null} for a non-blocking caller.
     */
    private final Runnable callerInterrupted;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    private StoreSends via;
    /** Whether an earlier send of this release may have run: "not held" is then that send's doing, not a loss. */
    private boolean sentBefore;
    /** The hand-off whose next caller is let in at the end, if any; set before a send, read after its answer. */
    private LocalHandOff handOff;

    /**
     * @param handOff the hand-off whose call carries the release, if any
     * @param via how the commands go out
     * @param steps where the steps run after an answer or a pause
     * @param callerInterrupted told of an interrupt that broke a blocking caller's wait; {@code null} if none waits
     */
    ReleaseSteps(HoldLifecycle holds, Hold hold, long delayMillis, LocalHandOff handOff, StoreSends via,
            Executor steps, Runnable callerInterrupted) {
        this.holds = holds;
        this.hold = hold;
        this.delayMillis = delayMillis;
        this.handOff = handOff;
        this.via = via;
        this.steps = steps;
        this.callerInterrupted = callerInterrupted;
    }

    /** Completes when the release was answered and the hold ended: normally, or with the release's failure. */
    CompletableFuture<Void> done() {
        return done;
    }

    /** Sends the release, with the next caller's try if it hands on; returns this. */
    ReleaseSteps start() {
        if (handOff != null) {
            handOn();
        } else {
            send(1);
        }
        return this;
    }

    /**
     * Sends the release with the next caller's try; a refused call is sent again as a plain release (the try was
     * refused too), and so is the release of a registry that closes.
     */
    private void handOn() {
        if (!handOff.nextAwaitsTry()) {
            releaseAlone();
            return;
        }
        via.whenAnswered(handOff.send(via.store(), hold), (passed, failure) -> {
            if (isRefused(failure)) {
                releaseAlone();
            } else if (!sentAgainAfterInterrupt(failure)) {
                answered(failure == null && passed.released(), failure);
            }
        });
    }

    /** Lets the next caller in to send its own try (or to find the registry closed), and sends the plain release. */
    private void releaseAlone() {
        handOff.letIn();
        handOff = null;
        send(1);
    }

    /** Sends the release, again while the store refuses it without running it, until the hold's local deadline. */
    private void send(int attempt) {
        via.whenAnswered(delayMillis > 0 ? via.store().extend(hold.name, hold.token, delayMillis)
                : via.store().release(hold.name, hold.token, hold.fencingToken), (released, failure) -> {
                    if (isRefused(failure) && retryLater(attempt,
                            StoreCalls.refusedPauseNanos(holds.runtime(), attempt, hold.validUntilNanos()))) {
                        return;
                    }
                    if (!sentAgainAfterInterrupt(failure)) {
                        answered(released != null && (released || sentBefore), failure);
                    }
                });
    }

    private boolean isRefused(Throwable failure) {
        return failure instanceof RuntimeException refused
                && holds.failures().classify(refused) == StoreFailure.REFUSED;
    }

    /**
     * The caller's interrupt broke its wait for the answer, not the command, which may have run: the release goes on
     * without blocking (a hand-off's next caller finds its try unanswered and tries by itself), answered on the
     * caller's steps, and fails if no answer came within the hold's lease (by then the lock expired anyway).
     */
    private boolean sentAgainAfterInterrupt(Throwable failure) {
        if (callerInterrupted == null || failure == null || sentBefore || !StoreCalls.brokenByInterrupt(failure)) {
            return false;
        }
        Thread.interrupted(); // the caller's, set again when it stops waiting: the second send must not meet it
        callerInterrupted.run();
        sentBefore = true;
        if (handOff != null) {
            handOff.letIn(); // its try went with the broken call: unanswered, it tries by itself within its wait
            handOff = null;
        }
        via = new StoreSends(holds.sends(), steps);
        holds.runtime().after(TimeUnit.MILLISECONDS.toNanos(hold.leaseMillis()),
                () -> steps.execute(this::unansweredAfterInterrupt));
        send(1);
        return true;
    }

    private void unansweredAfterInterrupt() {
        if (done.isDone()) {
            return;
        }
        holds.cleanup().abandon(hold.name, hold.token, hold.leaseMillis(), true);
        holds.ended(hold, handOff);
        done.completeExceptionally(new LockBackendException(hold.name, "release (interrupted, then sent again "
                + "without an answer within its lease " + Duration.ofMillis(hold.leaseMillis()) + "; it is retried in "
                + "the background)", null));
    }

    /** The answer (or {@code failure}) dealt with, then the hold's end: before {@link #done} completes. */
    private void answered(boolean released, Throwable failure) {
        if (done.isDone()) {
            return; // given up on after an interrupt: the hold ended then
        }
        try {
            if (failure != null) {
                throw holds.releaseFailed(hold, delayMillis, failure);
            }
            holds.released(hold, released);
        } catch (RuntimeException failed) {
            holds.ended(hold, handOff); // before the caller hears of it: its next acquisition must find the gate free
            done.completeExceptionally(failed);
            return;
        }
        holds.ended(hold, handOff);
        done.complete(null);
    }

    /** Sends again after {@code pauseNanos} on the steps; false if there is no time left (-1) or the timer closed. */
    private boolean retryLater(int attempt, long pauseNanos) {
        if (pauseNanos < 0) {
            return false;
        }
        try {
            holds.runtime().schedule(() -> steps.execute(() -> send(attempt + 1)), pauseNanos);
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }
}
