package dev.distlock.core.support;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The acquisitions of a registry that wait in the store's queue, so that closing the registry can withdraw them and
 * give them a bounded time to leave the queue before the store closes.
 */
final class Waiters {

    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;

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
        if (closing) {
            synchronized (waiting) {
                waiting.notifyAll();
            }
        }
    }

    /**
     * Wakes every waiter to withdraw, then waits up to {@code maxWaitMillis} until all have left (an interrupt ends
     * the wait early, with the flag set again).
     */
    void withdrawAll(long maxWaitMillis) {
        closing = true;
        waiting.forEach(Acquisition::wakeForClose);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(maxWaitMillis);
        synchronized (waiting) {
            while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
                try {
                    waiting.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
