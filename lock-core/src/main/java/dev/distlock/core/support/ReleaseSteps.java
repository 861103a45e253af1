package dev.distlock.core.support;

import dev.distlock.core.spi.StoreFailure;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;

/**
 * One release of a hold as steps that do not wait for the store: the non-blocking release, and a blocking one whose
 * wait for the answer an interrupt broke (its caller waits for these steps). The release (or a hand-off with the next
 * caller's try, or, with a delay, the lease left to expire) is sent again while the store refuses it without running
 * it, until the hold's local deadline; its answer is dealt with ({@link HoldLifecycle}'s rules), then the hold ends, before {@link #done()}
 * completes, on one of the registry's step threads (never the store client's).
 */
final class ReleaseSteps {

    private final HoldLifecycle holds;
    private final Hold hold;
    private final long delayMillis;
    /** Whether an earlier send of this release may have run: "not held" is then that send's doing, not a loss. */
    private final boolean sentBefore;
    private final CompletableFuture<Void> done = new CompletableFuture<>();
    /** The hand-off whose next caller is let in at the end, if any; set before a send, read after its answer. */
    private LocalHandOff handOff;

    /**
     * @param handOff the hand-off whose call carries (or carried) the release, if any
     * @param sentBefore whether an earlier send of this release may have run, its answer never heard
     */
    ReleaseSteps(HoldLifecycle holds, Hold hold, long delayMillis, LocalHandOff handOff, boolean sentBefore) {
        this.holds = holds;
        this.hold = hold;
        this.delayMillis = delayMillis;
        this.handOff = handOff;
        this.sentBefore = sentBefore;
    }

    /** Completes when the release was answered and the hold ended: normally, or with the release's failure. */
    CompletableFuture<Void> done() {
        return done;
    }

    /** Sends the release with the next caller's try; a refused call is sent again as a plain release. */
    ReleaseSteps handOn() {
        handOff.send(holds.sends(), hold).whenComplete((passed, failure) -> holds.runtime().afterAnswer(() -> {
            Throwable cause = StoreCalls.unwrapped(failure);
            if (cause instanceof RuntimeException refused && holds.store().classify(refused) == StoreFailure.REFUSED) {
                handOff.letIn(); // its try was refused too: it tries again by itself
                handOff = null;
                send(1);
                return;
            }
            answered(cause == null && passed.released(), cause);
        }));
        return this;
    }

    /** Sends the release (or the expiry after the delay). */
    ReleaseSteps send() {
        send(1);
        return this;
    }

    /** Sends the release, again while the store refuses it without running it, until the hold's local deadline. */
    private void send(int attempt) {
        CompletionStage<Boolean> sent = delayMillis > 0 ? holds.sends().extend(hold.name, hold.token, delayMillis)
                : holds.sends().release(hold.name, hold.token, hold.fencingToken);
        sent.whenComplete((released, failure) -> holds.runtime().afterAnswer(() -> {
            Throwable cause = StoreCalls.unwrapped(failure);
            if (cause instanceof RuntimeException refused && holds.store().classify(refused) == StoreFailure.REFUSED
                    && retryLater(attempt, StoreCalls.refusedPauseNanos(holds.runtime(), attempt, hold.validUntilNanos()))) {
                return;
            }
            answered(released != null && (released || sentBefore), cause);
        }));
    }

    /** The answer (or {@code failure}) dealt with, then the hold's end: before {@link #done} completes. */
    private void answered(boolean released, Throwable failure) {
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

    /** Sends again after {@code pauseNanos}; false if there is no time left (-1) or the timer is closed. */
    private boolean retryLater(int attempt, long pauseNanos) {
        if (pauseNanos < 0) {
            return false;
        }
        try {
            holds.runtime().schedule(() -> send(attempt + 1), pauseNanos);
            return true;
        } catch (RejectedExecutionException closed) {
            return false;
        }
    }
}
