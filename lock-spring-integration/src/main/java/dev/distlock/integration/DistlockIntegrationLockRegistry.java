package dev.distlock.integration;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;
import org.springframework.scheduling.TaskScheduler;

/**
 * distlock as Spring Integration's {@link org.springframework.integration.support.locks.LockRegistry}: code written
 * for Spring Integration's {@code RedisLockRegistry} ({@code obtain}, {@code executeLocked}, {@code renewLock},
 * {@code expireUnusedOlderThan}, the {@link org.springframework.integration.support.locks.DistributedLock}s' own
 * {@code lock(ttl)} and {@code tryLock(wait, ttl)}, and {@code LockRegistryLeaderInitiator} for leader election) runs
 * on distlock unchanged. Each key is a distlock lock name; each lock is a {@link DistlockIntegrationLock}, re-entrant for
 * its thread, with a fencing token.
 *
 * <p>How a lock keeps its lease is the registry's {@link LeaseMode}: {@link LeaseMode#RENEWED} (distlock's watchdog
 * renews it while held) or {@link LeaseMode#EXPIRING} (Spring Integration's semantics: it expires {@code expireAfter}
 * after it was acquired unless renewed). A time to live shorter than distlock can hold is held as the shortest it can:
 * {@link #MIN_EXPIRE_AFTER} when it expires, {@link Lease#MIN_RENEWED} when renewed.
 *
 * <pre>{@code
 * var registry = new DistlockIntegrationLockRegistry(distlock, Duration.ofSeconds(60), LeaseMode.EXPIRING);
 * DistributedLock lock = registry.obtain("orders");            // as with Spring Integration's RedisLockRegistry
 * LockRegistryLeaderInitiator leader = new LockRegistryLeaderInitiator(registry, candidate);
 * }</pre>
 *
 * @since 0.1.0
 */
public final class DistlockIntegrationLockRegistry
        implements ExpirableLockRegistry<DistlockIntegrationLock>, RenewableLockRegistry<DistlockIntegrationLock> {

    /**
     * The shortest time to live of a lock that expires: distlock's shortest lease, {@link Lease#MIN} (100 ms); a
     * shorter one is held as this long. distlock counts an acquisition only if, when Redis answers, a tenth of its
     * lease is left after a drift margin of 1% plus 2 ms: at 100 ms a reply may take 87 ms, at a few milliseconds
     * no answer would come in time and the acquisition would never succeed.
     */
    public static final Duration MIN_EXPIRE_AFTER = Lease.MIN;

    /** How many locks {@link #obtain} keeps, the least recently obtained dropped first (as Spring Integration). */
    private static final int CACHE_CAPACITY = 256;

    private final LockRegistry locks;
    private final Duration expireAfter;
    private final LeaseMode leaseMode;
    private volatile boolean renewalScheduled;
    private final Map<String, DistlockIntegrationLock> obtained = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, DistlockIntegrationLock> eldest) {
            return size() > CACHE_CAPACITY;
        }
    };

    /**
     * A registry whose locks are renewed by the watchdog while held ({@link LeaseMode#RENEWED}).
     *
     * @param locks the distlock registry the locks come from
     * @param lease the lease of every lock, renewed while held; {@link #renewLock(Object)} extends a hold by it
     */
    public DistlockIntegrationLockRegistry(LockRegistry locks, Duration lease) {
        this(locks, lease, LeaseMode.RENEWED);
    }

    /**
     * @param locks the distlock registry the locks come from
     * @param expireAfter the time to live of a lock acquired without one of its own (as Spring Integration's
     *        {@code RedisLockRegistry} takes it): its lease, renewed while held or not as {@code leaseMode} says;
     *        {@link #renewLock(Object)} sets a hold's to it again
     * @param leaseMode whether the watchdog renews the locks while held, or they expire unless renewed
     * @throws IllegalArgumentException if {@code expireAfter} is below 1 ms or above {@link Lease#MAX}
     */
    public DistlockIntegrationLockRegistry(LockRegistry locks, Duration expireAfter, LeaseMode leaseMode) {
        this.locks = Objects.requireNonNull(locks, "locks");
        Lease.checkedExpiryMillis(expireAfter, "expireAfter"); // any length Spring Integration takes; see ttl(...)
        this.expireAfter = expireAfter;
        this.leaseMode = Objects.requireNonNull(leaseMode, "leaseMode");
    }

    /**
     * The lock of {@code lockKey}: the same object for the same key as long as it is kept (the last
     * {@value #CACHE_CAPACITY} keys obtained, until {@link #expireUnusedOlderThan}).
     *
     * @throws IllegalArgumentException if the key is not a {@code String} (as Spring Integration's Redis registry)
     */
    @Override
    public DistlockIntegrationLock obtain(Object lockKey) {
        String name = name(lockKey);
        synchronized (obtained) {
            return obtained.computeIfAbsent(name,
                    key -> new DistlockIntegrationLock(this, locks.obtain(key, lease(expireAfter))));
        }
    }

    /**
     * Forgets the locks last acquired more than {@code age} milliseconds ago that no thread of this registry holds:
     * {@link #obtain} makes new ones for them. A lock never acquired is kept. distlock itself keeps nothing for a lock
     * nobody holds or waits for.
     */
    @Override
    public void expireUnusedOlderThan(long age) {
        long now = System.currentTimeMillis();
        synchronized (obtained) {
            obtained.values().removeIf(lock -> lock.lockedAt() > 0 && now - lock.lockedAt() > age && !lock.isHeld());
        }
    }

    /**
     * Sets the time to live of the current thread's hold of {@code lockKey} to {@code expireAfter} from now.
     *
     * @throws IllegalStateException if the current thread does not hold it, or it was lost
     */
    @Override
    public void renewLock(Object lockKey) {
        renewLock(lockKey, expireAfter);
    }

    /**
     * Sets the time to live of the current thread's hold of {@code lockKey} to {@code ttl} from now (a renewed hold
     * is renewed to this length from then on).
     *
     * @throws IllegalStateException if the current thread does not hold it, or it was lost
     */
    @Override
    public void renewLock(Object lockKey, Duration ttl) {
        FencedLock lock = obtain(lockKey).fencedLock();
        try {
            lock.extend(ttl(ttl));
        } catch (IllegalMonitorStateException | LockLostException notHeld) {
            throw new IllegalStateException("Could not renew mutex at '" + lock.name() + "': " + notHeld.getMessage(),
                    notHeld);
        }
    }

    /**
     * Has the locks acquired from now on renewed while held, every third of their time to live, as Spring
     * Integration's renewal task does: in {@link LeaseMode#EXPIRING} they stop expiring while their holder lives (in
     * {@link LeaseMode#RENEWED} they are renewed anyway). distlock's watchdog sends the renewals (on its own timer,
     * batched, each bounded, a loss reported), not {@code renewalTaskScheduler}'s threads.
     *
     * @throws IllegalArgumentException if {@code renewalTaskScheduler} is {@code null}
     */
    @Override
    public void setRenewalTaskScheduler(TaskScheduler renewalTaskScheduler) {
        if (renewalTaskScheduler == null) {
            throw new IllegalArgumentException("'renewalTaskScheduler' must not be null");
        }
        renewalScheduled = true;
    }

    /** How this registry's locks keep their lease. */
    public LeaseMode leaseMode() {
        return leaseMode;
    }

    /** The time to live of a lock acquired without one of its own. */
    public Duration expireAfter() {
        return expireAfter;
    }

    /** Whether locks acquired now are renewed while held. */
    boolean renews() {
        return leaseMode == LeaseMode.RENEWED || renewalScheduled;
    }

    /** The distlock lock of {@code name} whose holds live by the time to live {@code ttl}. */
    FencedLock leased(String name, Duration ttl) {
        return locks.obtain(name, lease(ttl));
    }

    /** The lease a hold acquired now with the time to live {@code ttl} gets: the one rule of this registry's leases. */
    private Lease lease(Duration ttl) {
        return renews() ? Lease.renewed(ttl(ttl)) : Lease.fixed(ttl(ttl));
    }

    /** {@code ttl}, or the shortest lease distlock holds a lock acquired now by, if that is longer. */
    Duration ttl(Duration ttl) {
        Duration shortest = renews() ? Lease.MIN_RENEWED : MIN_EXPIRE_AFTER;
        return ttl.compareTo(shortest) < 0 ? shortest : ttl;
    }

    private static String name(Object lockKey) {
        if (!(lockKey instanceof String name)) {
            throw new IllegalArgumentException("A lock key must be a String (the distlock lock name), got "
                    + (lockKey == null ? "null" : lockKey.getClass().getName()));
        }
        return name;
    }
}
