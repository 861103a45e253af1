package dev.distlock.memory;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The fencing-token count of each name, kept for a retention after its last use as the Redis counter key is, so
 * tokens only grow while the count lives and fall back to the clock in microseconds after. Not thread-safe on
 * purpose: every call is made under the {@link InMemoryLockStore}'s monitor.
 */
final class FencingTokens {

    private final long retentionMillis;
    private final Map<String, Fence> fences = new HashMap<>();

    FencingTokens(long retentionMillis) {
        this.retentionMillis = retentionMillis;
    }

    /** The next token for {@code name}: the larger of the live count plus one and the clock in microseconds. */
    long next(String name, long now) {
        Fence last = fences.get(name);
        long micros = TimeUnit.MILLISECONDS.toMicros(now);
        long fence = last != null && last.expiresAt() > now ? Math.max(last.value() + 1, micros) : micros;
        fences.put(name, new Fence(fence, now + retentionMillis));
        return fence;
    }

    /**
     * Raises the count of {@code name} to {@code fencingToken} if that is above the count kept (the holder's
     * {@code holderToken} once the count has expired); whether it did.
     */
    boolean raise(String name, long holderToken, long fencingToken, long now) {
        Fence last = fences.get(name);
        long kept = last == null || last.expiresAt() <= now ? holderToken : last.value();
        if (fencingToken <= kept) {
            return false;
        }
        fences.put(name, new Fence(fencingToken, now + retentionMillis));
        return true;
    }

    /** Drops counts whose retention has ended at {@code now}. */
    void sweep(long now) {
        fences.values().removeIf(fence -> fence.expiresAt() <= now);
    }

    private record Fence(long value, long expiresAt) {
    }
}
