package dev.distlock.core.support;

import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The acquisitions of a registry that wait in the store's queue, so that closing the registry can withdraw them and
 * give them a bounded time to leave the queue before the store closes.
 */
final class Waiters {

    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;
    /** Completed once closing began and every waiter left. */
    private final CompletableFuture<Void> allLeft = new CompletableFuture<>();

    /**
     * Counts {@code waiter}, then checks that {@code registry} is open: a close() from now on waits for the call to
     * withdraw, and one before it is seen here (a close between the check and the count would end the pools under
     * its try).
     *
     * @throws IllegalStateException if the registry is closed (the waiter is not counted then)
     */
    void admit(Acquisition waiter, StoreLockRegistry registry, String name) {
        waiting.add(waiter);
        try {
            registry.checkOpen(name);
        } catch (IllegalStateException closed) {
            remove(waiter);
            throw closed;
        }
    }

    void remove(Acquisition waiter) {
        waiting.remove(waiter);
        if (closing && waiting.isEmpty()) {
            allLeft.complete(null);
        }
    }

    /** Wakes every waiter to withdraw: the future completes once all have left. */
    CompletableFuture<Void> withdrawAll() {
        closing = true;
        waiting.forEach(Acquisition::wakeForClose);
        if (waiting.isEmpty()) {
            allLeft.complete(null);
        }
        return allLeft;
    }
}
