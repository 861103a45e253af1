package dev.distlock.core.engine.hold;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The names this registry holds or waits for, each with its {@link NameState}. A name's state lives while some
 * call uses it (waits for it or holds it) and is dropped after, so memory does not grow with the number of names
 * ever used.
 */
public final class NameTable {

    private final ConcurrentHashMap<String, NameState> states = new ConcurrentHashMap<>();

    /** The state of {@code name}, counted as used until {@link #release}d. */
    public NameState retain(String name) {
        while (true) {
            NameState state = states.get(name);
            if (state == null) {
                NameState made = new NameState();
                state = states.putIfAbsent(name, made);
                if (state == null) {
                    return made;
                }
            }
            if (state.retain()) {
                return state;
            }
            states.remove(name, state); // its last user let go just now: help drop it, then make a new one
        }
    }

    /** One use of {@code state} ended; the last one drops it. */
    public void release(NameState state, String name) {
        if (state.release()) {
            states.remove(name, state);
        }
    }

    /** The hold of {@code name} owned by {@code thread} (it may have been lost), or {@code null}. */
    public Hold heldBy(String name, Thread thread) {
        NameState state = states.get(name);
        return state != null ? state.heldBy(thread) : null;
    }

    /** Every hold of this registry, lost ones whose owners have not released yet included. */
    public List<Hold> holds() {
        List<Hold> holds = new ArrayList<>();
        states.values().forEach(state -> state.addHoldsTo(holds));
        return holds;
    }

    /** Lets every call waiting at a name's gate through, now and from now on: the registry closes. */
    public void openGatesForClose() {
        states.values().forEach(state -> state.gate.openForClose());
    }

    /** How many names have state: those held or waited for right now. */
    public int size() {
        return states.size();
    }
}
