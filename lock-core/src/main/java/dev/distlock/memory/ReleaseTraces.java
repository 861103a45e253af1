package dev.distlock.memory;

import java.util.HashMap;
import java.util.Map;

/**
 * The freed locks: for each name released last and not taken since, its last hold (its fencing token and its
 * life's origin), kept for the fence retention as the Redis scripts keep the freed value. A freed lock taken again
 * within the retention goes on with the same life; one whose trace is gone starts a new life. Not thread-safe on
 * purpose: every call is made under the {@link InMemoryLockStore}'s monitor.
 */
final class ReleaseTraces {

    private final long retentionMillis;
    private final Map<String, Held> freed = new HashMap<>();

    ReleaseTraces(long retentionMillis) {
        this.retentionMillis = retentionMillis;
    }

    /** Leaves the trace of {@code held}, released at {@code now}, in place of the name's last one. */
    void remember(String name, Held held, long now) {
        freed.put(name, held.withExpiry(now + retentionMillis));
    }

    /** The live trace of {@code name} at {@code now}, taken away (the lock is taken again); {@code null} if none. */
    Held take(String name, long now) {
        Held trace = freed.remove(name);
        return trace != null && trace.expiresAt() > now ? trace : null;
    }

    /** Whether {@code name} is freed at {@code now}, {@code fence} issued in its life (see {@link Held#sameLifeUpTo}). */
    boolean releasedInLife(String name, long fence, long now) {
        Held trace = freed.get(name);
        return trace != null && trace.expiresAt() > now && trace.sameLifeUpTo(fence);
    }

    /** Forgets the trace of {@code name}: its key was deleted. */
    void forget(String name) {
        freed.remove(name);
    }

    /** Drops traces that have outlived the retention at {@code now}. */
    void sweep(long now) {
        freed.values().removeIf(held -> held.expiresAt() <= now);
    }
}
