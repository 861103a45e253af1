package dev.distlock.core.support;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * What one registry knows about one name while the name is held or waited for; dropped when idle so
 * memory does not grow with the number of names ever used.
 */
final class NameState {

    /**
     * Local queue: an acquisition owns the gate from before it asks the store until its hold ends or is lost,
     * so acquisitions of this registry never race each other in the backend and wait in arrival order.
     */
    final NameGate gate = new NameGate();

    /**
     * The holds of this registry: the current one, and lost ones whose owners have not called
     * {@code unlock()} yet (they learn of the loss there). Usually one element.
     */
    final List<Hold> holds = new CopyOnWriteArrayList<>();

    /** Callers using this state (waiting or holding); guarded by the registry's map. */
    int users;

    /** The hold owned by {@code thread}, or {@code null}. */
    Hold heldBy(Thread thread) {
        for (Hold hold : holds) {
            if (hold.owner == thread) {
                return hold;
            }
        }
        return null;
    }
}
