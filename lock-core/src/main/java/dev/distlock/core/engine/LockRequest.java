package dev.distlock.core.engine;

import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.NameState;
import dev.distlock.core.engine.runtime.EngineRuntime;

/**
 * What an acquisition asks for: a name (and its local state), the lease and whether it is renewed.
 *
 * @param runtime the registry's time, which the hold is trusted by
 * @param label the metrics label of the call, or {@code null}
 */
public record LockRequest(EngineRuntime runtime, NameState state, String name, String label, long leaseMillis,
        boolean renewed) {

    /**
     * The hold {@code token} got, trusted until {@code validUntilNanos}; {@code renewalDueNanos} is when its lease is
     * first renewed, or confirmed if it is only a hand-off's claim ({@code claimOnly}: shorter than the full lease).
     */
    public Hold hold(String token, long fencingToken, long validUntilNanos, long renewalDueNanos, boolean claimOnly) {
        return new Hold(runtime, state, name, label, token, fencingToken, leaseMillis, renewed, validUntilNanos,
                claimOnly, renewalDueNanos);
    }
}
