package dev.distlock.core.support;

import java.util.concurrent.CompletableFuture;

/**
 * One acquisition's place at its name's local {@link NameGate}: waiting to enter, inside, and given back at the end
 * unless a hold keeps it. Touched by the acquisition's steps only.
 */
final class GatePass {

    private final NameGate gate;
    private CompletableFuture<Void> entry;
    private boolean inside;

    GatePass(NameGate gate) {
        this.gate = gate;
    }

    /** Queues at the gate; the future completes when this call may go to the store (or the registry closes). */
    CompletableFuture<Void> enter() {
        entry = gate.enter();
        return entry;
    }

    /** The gate let the call in. */
    void entered() {
        inside = true;
    }

    boolean isInside() {
        return inside;
    }

    /** The wait ran out before the gate let the call in: true if it left the gate's queue (and ends unlocked). */
    boolean giveUp() {
        return gate.withdraw(entry);
    }

    /**
     * The acquisition ended: a hold keeps the gate (it gives it back when it ends); otherwise the gate goes on to the
     * next call, also when it let this one in just as it ended.
     */
    void ended(boolean withHold) {
        if (!inside && entry != null && !gate.withdraw(entry)) {
            entry.thenRun(gate::leave);
        } else if (inside && !withHold) {
            gate.leave();
        }
    }
}
