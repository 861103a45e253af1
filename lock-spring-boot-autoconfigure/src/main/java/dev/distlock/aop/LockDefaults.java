package dev.distlock.aop;

import dev.distlock.core.Lease;
import java.time.Duration;

/**
 * What a {@link dev.distlock.annotation.DistributedLock @DistributedLock} method uses when its annotation
 * leaves {@code timeout} or {@code lease} empty; bound from {@code distlock.wait-timeout},
 * {@code distlock.lease} and {@code distlock.renew-lease}.
 *
 * @param waitTimeout how long a call waits for its lock; {@link Duration#ZERO} means exactly one try
 * @param lease the lease of a hold
 * @param renewLease whether the watchdog renews that lease while the method runs
 */
public record LockDefaults(Duration waitTimeout, Duration lease, boolean renewLease) {

    /**
     * Checks the values (the one place the rules of these properties are written), so a bad property fails at startup
     * rather than at the first call.
     *
     * @throws IllegalArgumentException saying what the value must be
     */
    public LockDefaults {
        if (waitTimeout == null || waitTimeout.isNegative()) {
            throw new IllegalArgumentException("must be zero (one try) or positive, got " + waitTimeout);
        }
        String leaseProblem = lease == null ? "must be set" : Lease.problem(lease, renewLease);
        if (leaseProblem != null) {
            throw new IllegalArgumentException(leaseProblem + (renewLease ? " (distlock.renew-lease=true)" : "")
                    + ", got " + lease);
        }
    }

    /** The lease of a method whose annotation sets none: renewed or fixed as {@link #renewLease()} says. */
    Lease defaultLease() {
        return renewLease ? Lease.renewed(lease) : Lease.fixed(lease);
    }
}
