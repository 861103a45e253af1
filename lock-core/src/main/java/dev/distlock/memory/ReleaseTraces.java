package dev.distlock.memory;

import java.util.HashMap;
import java.util.Map;

/**
 * The last released hold of each name, until its lease would have ended (at most the fence retention): what a
 * release run again finds, so a retried release reports success as the Redis release script does. Not
 * thread-safe on purpose: every call is made under the {@link InMemoryLockStore}'s monitor.
 */
final class ReleaseTraces {

    private final long retentionMillis;
    private final Map<String, Held> released = new HashMap<>();

    ReleaseTraces(long retentionMillis) {
        this.retentionMillis = retentionMillis;
    }

    /** Leaves the trace of {@code held}, released at {@code now}, in place of the name's last one. */
    void remember(String name, Held held, long now) {
        // as on Redis, the trace lives no longer than the lease would have; here, no longer than the fence either
        released.put(name, held.withExpiry(Math.min(held.expiresAt(), now + retentionMillis)));
    }

    /** Whether the live trace of {@code name} is of {@code token}, or of the owner {@code token} handed it to. */
    boolean releasedBy(String name, String token, long now) {
        Held trace = released.get(name);
        return trace != null && trace.expiresAt() > now
                && (token.equals(trace.token()) || token.equals(trace.previousOwner()));
    }

    /** Drops traces that have outlived their lease at {@code now}. */
    void sweep(long now) {
        released.values().removeIf(held -> held.expiresAt() <= now);
    }
}
