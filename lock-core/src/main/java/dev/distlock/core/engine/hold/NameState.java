package dev.distlock.core.engine.hold;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.List;

/**
 * What one registry knows about one name while the name is held or waited for; dropped when idle so
 * memory does not grow with the number of names ever used ({@link NameTable}). Made for most lock calls, so it is
 * kept small: a gate, its holds (the usual one without an array) and a count of its users.
 */
public final class NameState {

    private static final Hold[] NONE = new Hold[0];
    private static final VarHandle USERS;

    static {
        try {
            USERS = MethodHandles.lookup().findVarHandle(NameState.class, "users", int.class);
        } catch (ReflectiveOperationException impossible) {
            throw new ExceptionInInitializerError(impossible);
        }
    }

    /**
     * Local queue: an acquisition owns the gate from before it asks the store until its hold ends or is lost,
     * so acquisitions of this registry never race each other in the backend and wait in arrival order.
     */
    public final NameGate gate = new NameGate();

    /**
     * The holds of this registry: the current one, and lost ones whose owners have not called {@code unlock()} yet
     * (they learn of the loss there), or a semaphore's several. Usually one, kept in {@link #first} so that no array
     * is made for it; the others in {@link #more}, replaced, never changed in place. A hold stays in the field it was
     * added to until it is removed, so that {@link #heldBy} reads them without the monitor and never misses one.
     */
    private volatile Hold first;
    private volatile Hold[] more = NONE;

    /** Calls using this state (waiting or holding); 0 once dropped, for good. Moved by {@link #USERS}. */
    private volatile int users = 1;

    /** One more call uses this state; false if it was dropped meanwhile (the caller makes a new one). */
    boolean retain() {
        for (int now = users; now > 0; now = users) {
            if (USERS.compareAndSet(this, now, now + 1)) {
                return true;
            }
        }
        return false;
    }

    /** One call stopped using this state; true if it was the last, and the state is dropped. */
    boolean release() {
        return (int) USERS.getAndAdd(this, -1) == 1;
    }

    public synchronized void add(Hold hold) {
        if (first == null) {
            first = hold; // the usual case: no array made
            return;
        }
        Hold[] now = more;
        Hold[] longer = Arrays.copyOf(now, now.length + 1);
        longer[now.length] = hold;
        more = longer;
    }

    synchronized void remove(Hold hold) {
        if (first == hold) {
            first = null;
            return;
        }
        Hold[] now = more;
        for (int i = 0; i < now.length; i++) {
            if (now[i] == hold) {
                Hold[] fewer = now.length == 1 ? NONE : new Hold[now.length - 1];
                System.arraycopy(now, 0, fewer, 0, i);
                System.arraycopy(now, i + 1, fewer, i, now.length - i - 1);
                more = fewer;
                return;
            }
        }
    }

    /** The hold owned by {@code thread}, or {@code null}. */
    Hold heldBy(Thread thread) {
        Hold hold = first;
        if (hold != null && hold.owner() == thread) {
            return hold;
        }
        for (Hold other : more) {
            if (other.owner() == thread) {
                return other;
            }
        }
        return null;
    }

    /** Adds this name's holds to {@code into}. */
    synchronized void addHoldsTo(List<Hold> into) {
        Hold hold = first;
        if (hold != null) {
            into.add(hold);
        }
        into.addAll(Arrays.asList(more));
    }
}
