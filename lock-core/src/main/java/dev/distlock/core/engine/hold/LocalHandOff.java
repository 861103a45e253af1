package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.PassOn;
import java.util.concurrent.CompletionStage;

/**
 * A release that hands its name's gate to the next caller of this registry waiting there, and sends that caller's
 * first try with it, in one store call ({@link dev.distlock.core.spi.PassingOn}, where the store offers it): a local
 * hand-off in one round trip instead of two. The caller is let in only once the call was answered and the releasing
 * hold's end was dealt with, so the release is heard before the next acquisition; it finds the answer to its try
 * waiting ({@link NameGate.PassedTry}). If the call failed, the failure is the releaser's (its interrupt, a
 * cancellation, its client's error): the next caller only finds its try unanswered, and starts over with a new token.
 */
public final class LocalHandOff {

    private final NameGate.Waiting next;
    private final EngineRuntime runtime;
    private final long waiterTimeoutMillis;
    private long sentNanos;
    private CompletionStage<AcquireResult> answer;
    private boolean letIn;

    private LocalHandOff(NameGate.Waiting next, EngineRuntime runtime, long waiterTimeoutMillis) {
        this.next = next;
        this.runtime = runtime;
        this.waiterTimeoutMillis = waiterTimeoutMillis;
    }

    /**
     * The hand-off of the gate of {@code hold} (ended, so that nothing else gives its gate back) to the next caller
     * waiting at it, taken out of the gate's queue, for a store that passes on in one call; {@code null} if nobody
     * waits (the hold then gives the gate back as usual, after its release).
     */
    static LocalHandOff take(Hold hold, EngineRuntime runtime, long waiterTimeoutMillis) {
        NameGate.Waiting next = hold.ownsGate() ? hold.state.gate.handOn() : null;
        if (next == null) {
            return null;
        }
        hold.handOnGate();
        return new LocalHandOff(next, runtime, waiterTimeoutMillis);
    }

    /** Whether the next caller waits for a try sent with the release: false if the registry closes. */
    boolean nextAwaitsTry() {
        return next.caller.awaitsPassedTry();
    }

    /** Sends the release of {@code hold} with the next caller's try; the stage completes with the call's answer. */
    CompletionStage<PassOn> send(AsyncLockStore sends, Hold hold) {
        NameGate.Caller caller = next.caller;
        sentNanos = runtime.nanoTime();
        CompletionStage<PassOn> call = sends.passOn(hold.name, hold.token, hold.fencingToken,
                caller.firstToken(), caller.leaseMillis(), caller.queues(), waiterTimeoutMillis);
        answer = call.thenApply(PassOn::next);
        return call;
    }

    /**
     * Lets the next caller in, once (a refused call let it in already): with the answer to its try, or to send its own
     * if the call never went out. Called by the releasing thread or step, one at a time.
     */
    void letIn() {
        if (!letIn) {
            letIn = true;
            next.letIn(answer != null ? new NameGate.PassedTry(answer, sentNanos) : null);
        }
    }
}
