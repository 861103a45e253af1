package dev.distlock.core.support;

import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;

/**
 * This registry's local queue for one name: one acquisition at a time goes to the store, the others wait here in
 * arrival order, each as a pending future (no thread). An acquisition owns the gate from {@link #enter} until
 * its hold ends or is lost (or it gives up without one), and gives it back exactly once with {@link #leave}.
 */
final class NameGate {

    private static final CompletableFuture<Void> ENTERED = CompletableFuture.completedFuture(null);

    /** Made when the first call has to wait: most names never see two calls at once. */
    private ArrayDeque<CompletableFuture<Void>> queue;
    private boolean taken;
    /** The registry closed: everybody may pass, to find it closed. */
    private boolean open;

    /** A future completed when the caller owns the gate: at once if nobody does. */
    synchronized CompletableFuture<Void> enter() {
        if (!taken || open) {
            taken = true;
            return ENTERED;
        }
        CompletableFuture<Void> entry = new CompletableFuture<>();
        if (queue == null) {
            queue = new ArrayDeque<>();
        }
        queue.add(entry);
        return entry;
    }

    /**
     * Takes a waiting {@code entry} out of the queue.
     *
     * @return true if it was still waiting; false if it was let in (its future completes, if it has not yet)
     */
    synchronized boolean withdraw(CompletableFuture<Void> entry) {
        return queue != null && queue.remove(entry);
    }

    /** Gives the gate to the next in line, or frees it. */
    void leave() {
        CompletableFuture<Void> next;
        synchronized (this) {
            next = queue != null ? queue.poll() : null;
            if (next == null) {
                taken = false;
                return;
            }
        }
        next.complete(null); // outside the monitor: the next acquisition's step may run here
    }

    /** Lets everybody in, now and from now on: the registry closes and they must find it closed. */
    void openForClose() {
        CompletableFuture<?>[] waiting;
        synchronized (this) {
            open = true;
            waiting = queue != null ? queue.toArray(CompletableFuture<?>[]::new) : new CompletableFuture<?>[0];
            queue = null;
        }
        for (CompletableFuture<?> entry : waiting) {
            entry.complete(null);
        }
    }
}
