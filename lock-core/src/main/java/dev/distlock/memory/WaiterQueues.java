package dev.distlock.memory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The queue of waiters of each name, kept apart so the store reads as the lock rules alone. Like Redis's queue
 * entries, each waiter carries its own deadline and dead entries are dropped lazily. Not thread-safe on purpose:
 * every call is made under the {@link InMemoryLockStore}'s monitor, which guards all of the store's state.
 */
final class WaiterQueues {

    private final Map<String, LinkedHashMap<String, Waiter>> queues = new HashMap<>();

    /** Queues {@code token}, or refreshes its entry's deadline in place. */
    void enqueue(String name, String token, long leaseMillis, long timeoutMillis, long now) {
        queues.computeIfAbsent(name, key -> new LinkedHashMap<>())
                .compute(token, (key, waiter) -> new Waiter(token, leaseMillis, timeoutMillis, now + timeoutMillis));
    }

    /** Takes the first waiter whose entry is still live out of the queue, dropping dead ones before it. */
    Waiter firstLiveWaiter(String name, long now) {
        LinkedHashMap<String, Waiter> waiters = queues.get(name);
        if (waiters == null) {
            return null;
        }
        Waiter first = null;
        for (Iterator<Waiter> it = waiters.values().iterator(); it.hasNext() && first == null; ) {
            Waiter waiter = it.next();
            it.remove();
            if (waiter.deadline() >= now) {
                first = waiter;
            }
        }
        if (waiters.isEmpty()) {
            queues.remove(name);
        }
        return first;
    }

    /** Takes {@code token} out of the queue for {@code name}, if it is there. */
    void leave(String name, String token) {
        Map<String, Waiter> waiters = queues.get(name);
        if (waiters != null && waiters.remove(token) != null && waiters.isEmpty()) {
            queues.remove(name);
        }
    }

    /** Whether {@code name} has a queue at all (live or not), so callers can skip reading the clock. */
    boolean hasQueue(String name) {
        return queues.containsKey(name);
    }

    /** How many entries for {@code name} are live at {@code now}. */
    int liveWaiters(String name, long now) {
        Map<String, Waiter> waiters = queues.get(name);
        if (waiters == null) {
            return 0;
        }
        int live = 0;
        for (Waiter waiter : waiters.values()) {
            if (waiter.deadline() >= now) {
                live++;
            }
        }
        return live;
    }

    /** The tokens of the first {@code max} entries for {@code name} live at {@code now}, in queue order. */
    List<String> liveTokens(String name, long now, int max) {
        Map<String, Waiter> waiters = queues.get(name);
        if (waiters == null) {
            return List.of();
        }
        List<String> tokens = new ArrayList<>(Math.min(max, waiters.size()));
        for (Iterator<Waiter> it = waiters.values().iterator(); it.hasNext() && tokens.size() < max; ) {
            Waiter waiter = it.next();
            if (waiter.deadline() >= now) {
                tokens.add(waiter.token());
            }
        }
        return tokens;
    }

    /** Drops entries dead at {@code now}, and queues left empty. */
    void sweep(long now) {
        queues.values().removeIf(waiters -> {
            waiters.values().removeIf(waiter -> waiter.deadline() < now);
            return waiters.isEmpty();
        });
    }

    /** A queued acquisition: the lease it asks for, how long it waits, and when its entry dies. */
    record Waiter(String token, long leaseMillis, long timeoutMillis, long deadline) {
    }
}
