package dev.distlock.memory;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Who holds each name, till when and under which fencing token: the holds, dropped lazily once their lease has
 * ended as Redis expires a key, together with the {@link FencingTokens} that number them. Apart so the store
 * reads as the acquisition and hand-off rules alone. Not thread-safe on purpose: every call is made under the
 * {@link InMemoryLockStore}'s monitor.
 */
final class Holds {

    private final Map<String, Held> holds = new HashMap<>();
    private final FencingTokens fences;

    Holds(FencingTokens fences) {
        this.fences = fences;
    }

    /** The hold of {@code name} if its lease lives at {@code now}, else {@code null} (and a dead one is dropped). */
    Held live(String name, long now) {
        Held held = holds.get(name);
        if (held != null && held.expiresAt() <= now) {
            holds.remove(name);
            return null;
        }
        return held;
    }

    /** The live hold of {@code name} if {@code token} owns it, else {@code null}. */
    Held heldBy(String name, String token, long now) {
        Held current = live(name, now);
        return current != null && current.token().equals(token) ? current : null;
    }

    /**
     * Gives the lock to {@code token} with the next fencing token, in the life that began with {@code origin}, or in a
     * new life if {@code origin} is {@code null}.
     */
    Held grant(String name, String token, long leaseMillis, long now, Long origin) {
        long fence = fences.next(name, now);
        Held held = new Held(token, now + leaseMillis, fence, origin != null ? origin : fence);
        holds.put(name, held);
        return held;
    }

    /**
     * Lets the live hold of {@code token} end {@code leaseMillis} after {@code now}, or only if that is later when
     * {@code onlyLonger}; whether {@code token} holds the lock.
     */
    boolean setLease(String name, String token, long leaseMillis, boolean onlyLonger, long now) {
        Held current = heldBy(name, token, now);
        if (current == null) {
            return false;
        }
        if (!onlyLonger || current.expiresAt() < now + leaseMillis) {
            holds.put(name, current.withExpiry(now + leaseMillis));
        }
        return true;
    }

    /** Raises the fencing token of {@code token}'s live hold, if above the count kept; whether it holds the lock. */
    boolean raiseFence(String name, String token, long fencingToken, long now) {
        Held current = heldBy(name, token, now);
        if (current == null) {
            return false;
        }
        if (fences.raise(name, current.fencingToken(), fencingToken, now)) {
            holds.put(name, new Held(token, current.expiresAt(), fencingToken, current.origin()));
        }
        return true;
    }

    void put(String name, Held held) {
        holds.put(name, held);
    }

    void remove(String name) {
        holds.remove(name);
    }

    /** The names whose holds live at {@code now}. */
    List<String> liveNames(long now) {
        return holds.entrySet().stream().filter(e -> e.getValue().expiresAt() > now).map(Map.Entry::getKey).toList();
    }

    /** Drops holds whose lease, and fencing-token counts whose retention, has ended at {@code now}. */
    void sweep(long now) {
        holds.values().removeIf(held -> held.expiresAt() <= now);
        fences.sweep(now);
    }
}
