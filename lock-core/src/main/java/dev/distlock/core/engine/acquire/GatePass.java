package dev.distlock.core.engine.acquire;

import dev.distlock.core.engine.Waiters;
import dev.distlock.core.engine.hold.NameGate;
import dev.distlock.core.engine.store.Cleanup;
import java.util.concurrent.CompletableFuture;

/**
 * One acquisition's place at its name's local {@link NameGate}: waiting to enter, inside, and given back at the end
 * unless a hold keeps it. Touched by the acquisition's steps only (and by its predecessor, before letting it in, in
 * {@link #awaitsPassedTry}). An acquisition of permits passes no gate ({@code gate} {@code null}): several callers
 * of one registry may hold permits of a name at once, and the store arbitrates between them as between processes.
 *
 * <p>While a predecessor's release carries this call's first try, the pass counts among the registry's waiters, until
 * the call took the try up or gave back what it took: a registry that closes meanwhile waits for that before it
 * closes its store, so the try's lock is not left to expire.
 */
public final class GatePass implements Waiters.Waiter {

    private static final CompletableFuture<Void> NO_GATE = CompletableFuture.completedFuture(null);

    private final NameGate gate;
    private final NameGate.Caller caller;
    private final Cleanup cleanup;
    private final Waiters waiters;
    private final String name;
    private NameGate.Waiting waiting;
    private boolean inside;
    /** Whether it counts among the waiters for a passed try: set by the predecessor before the call is let in. */
    private boolean awaitsPassedTry;

    GatePass(NameGate gate, NameGate.Caller caller, Cleanup cleanup, Waiters waiters, String name) {
        this.gate = gate;
        this.caller = caller;
        this.cleanup = cleanup;
        this.waiters = waiters;
        this.name = name;
    }

    /** Queues at the gate; the future completes when this call may go to the store (or the registry closes). */
    CompletableFuture<Void> enter() {
        if (gate == null) {
            return NO_GATE;
        }
        waiting = gate.enter(caller);
        return waiting.entry;
    }

    /** The gate let the call in: without a passed try, it no longer waits for one. */
    void entered() {
        inside = true;
        if (passed() == null) {
            passedTryDealtWith();
        }
    }

    /** See {@link NameGate.Caller#awaitsPassedTry()}. */
    boolean awaitsPassedTry() {
        awaitsPassedTry = waiters.join(this);
        return awaitsPassedTry;
    }

    /** The call took up its passed try (it counts among the waiters by itself if it waits). */
    void tookUpPassedTry() {
        passedTryDealtWith();
    }

    /** The answer to the passed try lets the call in, to find the registry closed: nothing to do before. */
    @Override
    public void wakeForClose() {
    }

    @Override
    public String firstToken() {
        return caller.firstToken();
    }

    private void passedTryDealtWith() {
        if (awaitsPassedTry) {
            awaitsPassedTry = false;
            waiters.remove(this);
        }
    }

    boolean isInside() {
        return inside;
    }

    /** The first try the predecessor sent for this call with its release, or {@code null}: it sends its own. */
    NameGate.PassedTry passed() {
        return waiting != null ? waiting.passed() : null;
    }

    /** The wait ran out before the gate let the call in: true if it left the gate's queue (and ends unlocked). */
    boolean giveUp() {
        return gate != null && gate.withdraw(waiting);
    }

    /**
     * The acquisition ended: a hold keeps the gate (it gives it back when it ends); otherwise the gate goes on to the
     * next call, also when it let this one in just as it ended. A first try sent for this call that it never took
     * up is abandoned once answered (it may have taken the lock), and the gate goes on at once.
     */
    void ended(boolean withHold) {
        if (gate == null) {
            return;
        }
        if (!inside && waiting != null && !gate.withdraw(waiting)) {
            waiting.entry.thenRun(() -> {
                abandonUnused(waiting.passed());
                gate.leave();
            });
        } else if (inside && !withHold) {
            gate.leave();
        }
    }

    /**
     * A first try sent for this call that it will not take up: its token is abandoned once it was answered, and the
     * call stops counting among the waiters once the abandon was answered.
     */
    void abandonUnused(NameGate.PassedTry unused) {
        if (unused == null) {
            passedTryDealtWith();
            return;
        }
        unused.answer().whenComplete((answer, failure) ->
                cleanup.abandon(name, caller.firstToken(), caller.leaseMillis(), failure != null)
                        .whenComplete((abandoned, error) -> passedTryDealtWith()));
    }
}
