package dev.distlock.integration;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.Objects;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/**
 * distlock as Spring Integration's {@link org.springframework.integration.support.locks.LockRegistry}: code written
 * for Spring Integration's {@code RedisLockRegistry} (its {@code obtain}, {@code executeLocked}, {@code renewLock},
 * and {@code LockRegistryLeaderInitiator} for leader election) runs on distlock unchanged. Each key is a distlock lock
 * name; each lock is a {@link FencedLock} (a re-entrant {@link java.util.concurrent.locks.Lock} with a fencing token,
 * renewed by the watchdog while held, so {@code renewLock} is only needed to change a lease).
 *
 * <pre>{@code
 * Lock lock = integrationRegistry.obtain("orders");            // as with Spring Integration's RedisLockRegistry
 * LockRegistryLeaderInitiator leader = new LockRegistryLeaderInitiator(integrationRegistry, candidate);
 * }</pre>
 *
 * @since 0.1.0
 */
public final class DistlockIntegrationLockRegistry implements RenewableLockRegistry<FencedLock> {

    private final LockRegistry locks;
    private final Duration lease;

    /**
     * @param locks the distlock registry the locks come from
     * @param lease the lease of every lock, renewed while held; {@link #renewLock(Object)} extends a hold by it
     */
    public DistlockIntegrationLockRegistry(LockRegistry locks, Duration lease) {
        this.locks = Objects.requireNonNull(locks, "locks");
        Lease.renewed(lease); // refuses a lease a renewed lock cannot have
        this.lease = lease;
    }

    /**
     * The lock named {@code lockKey}.
     *
     * @throws IllegalArgumentException if the key is not a {@code String} (as Spring Integration's Redis registry)
     */
    @Override
    public FencedLock obtain(Object lockKey) {
        return locks.obtain(name(lockKey), Lease.renewed(lease));
    }

    /**
     * Extends the current thread's hold of {@code lockKey} to a full lease from now (the watchdog renews it anyway).
     *
     * @throws IllegalStateException if the current thread does not hold it, or it was lost
     */
    @Override
    public void renewLock(Object lockKey) {
        renewLock(lockKey, lease);
    }

    /**
     * Sets the remaining lease of the current thread's hold of {@code lockKey} to {@code timeToLive}.
     *
     * @throws IllegalStateException if the current thread does not hold it, or it was lost
     */
    @Override
    public void renewLock(Object lockKey, Duration timeToLive) {
        FencedLock lock = obtain(lockKey);
        try {
            lock.extend(timeToLive);
        } catch (IllegalMonitorStateException | LockLostException notHeld) {
            throw new IllegalStateException("Could not renew lock '" + lock.name() + "': " + notHeld.getMessage(),
                    notHeld);
        }
    }

    private static String name(Object lockKey) {
        if (!(lockKey instanceof String name)) {
            throw new IllegalArgumentException("A lock key must be a String (the distlock lock name), got "
                    + (lockKey == null ? "null" : lockKey.getClass().getName()));
        }
        return name;
    }
}
