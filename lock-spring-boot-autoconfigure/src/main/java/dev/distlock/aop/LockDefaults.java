package dev.distlock.aop;

import dev.distlock.core.Lease;
import java.time.Duration;
import java.util.Objects;

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

    /** Checks the values, so a bad property fails at startup rather than at the first call. */
    public LockDefaults {
        Objects.requireNonNull(waitTimeout, "waitTimeout");
        Objects.requireNonNull(lease, "lease");
        if (waitTimeout.isNegative()) {
            throw new IllegalArgumentException("distlock.wait-timeout must not be negative, got " + waitTimeout);
        }
        Lease.checkedMillis(lease, "distlock.lease", renewLease);
    }

    /** The lease of a method whose annotation sets none: renewed or fixed as {@link #renewLease()} says. */
    Lease defaultLease() {
        return renewLease ? Lease.renewed(lease) : Lease.fixed(lease);
    }
}
