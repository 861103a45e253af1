package dev.distlock.core.engine.acquire;

import dev.distlock.core.engine.hold.NameGate;
import dev.distlock.core.engine.store.Cleanup;
import java.util.concurrent.CompletableFuture;

/**
 * One acquisition's place at its name's local {@link NameGate}: waiting to enter, inside, and given back at the end
 * unless a hold keeps it. Touched by the acquisition's steps only. An acquisition of permits passes no gate
 * ({@code gate} {@code null}): several callers of one registry may hold permits of a name at once, and the store
 * arbitrates between them as between processes.
 */
public final class GatePass {

    private static final CompletableFuture<Void> NO_GATE = CompletableFuture.completedFuture(null);

    private final NameGate gate;
    private final NameGate.Caller caller;
    private final Cleanup cleanup;
    private final String name;
    private NameGate.Waiting waiting;
    private boolean inside;

    GatePass(NameGate gate, NameGate.Caller caller, Cleanup cleanup, String name) {
        this.gate = gate;
        this.caller = caller;
        this.cleanup = cleanup;
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

    /** The gate let the call in. */
    void entered() {
        inside = true;
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

    /** A first try sent for this call that it will not take up: its token is abandoned once it was answered. */
    void abandonUnused(NameGate.PassedTry unused) {
        if (unused != null) {
            unused.answer().whenComplete((answer, failure) ->
                    cleanup.abandon(name, caller.firstToken(), caller.leaseMillis(), failure != null));
        }
    }
}
