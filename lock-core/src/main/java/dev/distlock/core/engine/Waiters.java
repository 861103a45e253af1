package dev.distlock.core.engine;

import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The acquisitions of a registry that wait in the store's queue, so that closing the registry can withdraw them and
 * give them a bounded time to leave the queue before the store closes.
 */
public final class Waiters {

    /** A call that may wait in the store's queue. */
    public interface Waiter {

        /** The registry closes: the call withdraws. */
        void wakeForClose();

        /** The call's first token, of this registry's: closing wakes the calls in the order their tokens were issued. */
        String firstToken();
    }

    /** Tokens of one registry in the order they were issued (one prefix, then a growing number). */
    private static final Comparator<Waiter> ISSUED = Comparator.comparing(Waiter::firstToken,
            Comparator.comparingInt(String::length).thenComparing(Comparator.naturalOrder()));

    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();
    private volatile boolean closing;
    /** Completed once closing began and every waiter left. */
    private final CompletableFuture<Void> allLeft = new CompletableFuture<>();

    /**
     * Counts {@code waiter} for {@code name}, then checks that closing has not begun: a close from now on waits for
     * the call to withdraw, and one before it is seen here (a close between the check and the count would end the
     * pools under its try).
     *
     * @throws IllegalStateException if the registry is closing (the waiter is not counted then)
     */
    public void admit(Waiter waiter, String name) {
        if (!join(waiter)) {
            throw new IllegalStateException("Lock '" + name + "' cannot be acquired: its registry is closed");
        }
    }

    /** {@link #admit}, answering false instead of throwing if the registry is closing. */
    public boolean join(Waiter waiter) {
        waiting.add(waiter);
        if (closing) {
            remove(waiter);
            return false;
        }
        return true;
    }

    public void remove(Waiter waiter) {
        waiting.remove(waiter);
        if (closing && waiting.isEmpty()) {
            allLeft.complete(null);
        }
    }

    /** Wakes every waiter to withdraw: the future completes once all have left. */
    CompletableFuture<Void> withdrawAll() {
        closing = true;
        // in a fixed order (not the set's, which follows identity hashes): a simulated close replays the same way
        waiting.stream().sorted(ISSUED).forEach(Waiter::wakeForClose);
        if (waiting.isEmpty()) {
            allLeft.complete(null);
        }
        return allLeft;
    }
}
