package dev.distlock.core.engine;

import dev.distlock.core.HoldKind;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.NameState;
import dev.distlock.core.engine.runtime.EngineRuntime;

/**
 * What an acquisition asks for: a name (and its local state), the lease and whether it is renewed, and the kind of
 * hold: the name's lock, or {@code permits} of its semaphore of {@code limit}.
 *
 * @param label the metrics label of the call, or {@code null}
 * @param permits how many permits of the name's semaphore; 0 for the name's lock
 * @param limit how many permits the semaphore has (0 for a lock)
 * @param kind what the hold is of the name, for what it tells listeners and re-entry
 */
public record LockRequest(NameState state, String name, String label, long leaseMillis, boolean renewed, int permits,
        int limit, HoldKind kind) {

    /** Whether it asks for permits of a semaphore, which the store arbitrates without the name's local gate. */
    public boolean takesPermits() {
        return permits > 0;
    }

    /**
     * The hold {@code token} got at {@code nowNanos}, trusted until {@code validUntilNanos} by {@code runtime}'s clock
     * (the registry's); {@code renewalDueNanos} is when its lease is first renewed, or confirmed if it is only a
     * hand-off's claim ({@code claimOnly}: shorter than the full lease).
     */
    public Hold hold(EngineRuntime runtime, String token, long fencingToken, long validUntilNanos,
            long renewalDueNanos, boolean claimOnly, long nowNanos) {
        Hold hold = new Hold(runtime, state, name, label, token, fencingToken, leaseMillis, renewed, validUntilNanos,
                claimOnly, renewalDueNanos, nowNanos);
        return takesPermits() ? hold.ofPermits(kind) : hold;
    }
}
