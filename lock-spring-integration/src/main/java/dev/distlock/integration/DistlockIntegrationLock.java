package dev.distlock.integration;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;

/**
 * One key's lock of a {@link DistlockIntegrationLockRegistry}: Spring Integration's {@link DistributedLock} on a
 * distlock {@link FencedLock}, re-entrant for its thread. It throws what Spring Integration's locks throw:
 * <ul>
 *   <li>{@link #unlock()} by a thread that does not hold it: {@link IllegalStateException};</li>
 *   <li>{@link #unlock()} of a hold that expired or was taken over: {@link ConcurrentModificationException} (its cause
 *   the {@link LockLostException}); the other owner's key is left alone;</li>
 *   <li>an acquisition that the backend failed: {@link CannotAcquireLockException} (its cause the
 *   {@link LockBackendException}).</li>
 * </ul>
 * An acquisition by a thread that already holds the lock and found it lost is refused with {@link LockLostException}.
 * distlock's own API on the same lock (fencing tokens, {@code extend}, {@code detach}, asynchronous acquisition) is
 * {@link #fencedLock()}.
 *
 * @since 0.1.0
 */
public final class DistlockIntegrationLock implements DistributedLock {

    private final DistlockIntegrationLockRegistry registry;
    private final FencedLock lock;
    private volatile long lockedAt;
    private volatile boolean held;

    DistlockIntegrationLock(DistlockIntegrationLockRegistry registry, FencedLock lock) {
        this.registry = registry;
        this.lock = lock;
    }

    /** The lock's key: its distlock name. */
    public String name() {
        return lock.name();
    }

    /** distlock's handle of the same lock, for what Spring Integration's {@code Lock} does not offer. */
    public FencedLock fencedLock() {
        return lock;
    }

    /**
     * The fencing token of the current thread's hold: larger than those of earlier holds of this key.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     */
    public long fencingToken() {
        return lock.fencingToken();
    }

    /** Whether the current thread holds this lock and no loss has been detected. */
    public boolean isHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    /** Acquires the lock with the registry's {@code expireAfter}, waiting as long as it takes, as {@link #lock(Duration)}. */
    @Override
    public void lock() {
        lock(registry.expireAfter());
    }

    /**
     * Acquires the lock with a time to live of {@code ttl}, waiting as long as it takes; an interrupt does not stop the
     * wait (the thread's interrupt flag is set again on return). By a thread that holds it already, sets its time to
     * live again (unless renewed by the watchdog).
     *
     * @throws CannotAcquireLockException if the backend failed permanently
     */
    @Override
    public void lock(Duration ttl) {
        try {
            registry.leased(name(), ttl).lock();
        } catch (LockBackendException failed) {
            throw cannotAcquire(failed);
        }
        acquired(ttl);
    }

    /** Like {@link #lock()}, unless interrupted. */
    @Override
    public void lockInterruptibly() throws InterruptedException {
        FencedLock leased = registry.leased(name(), registry.expireAfter());
        acquiring(registry.expireAfter(), () -> {
            leased.lockInterruptibly();
            return true;
        });
    }

    /** One try with the registry's {@code expireAfter}; {@code false} also if the thread is interrupted. */
    @Override
    public boolean tryLock() {
        try {
            return tryLock(Duration.ZERO, registry.expireAfter());
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Like {@link #tryLock(Duration, Duration)} with the registry's {@code expireAfter}. */
    @Override
    public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return tryLock(Duration.ofNanos(unit.toNanos(time)), registry.expireAfter());
    }

    /**
     * Acquires the lock with a time to live of {@code ttl}, waiting at most {@code waitTime}.
     *
     * @return whether the current thread now holds the lock
     * @throws CannotAcquireLockException if the backend failed permanently, or transiently through the whole wait
     */
    @Override
    public boolean tryLock(Duration waitTime, Duration ttl) throws InterruptedException {
        FencedLock leased = registry.leased(name(), ttl);
        return acquiring(ttl, () -> leased.tryLock(waitTime));
    }

    /**
     * Releases one hold of the current thread; the last one releases the lock in the backend.
     *
     * @throws IllegalStateException if the current thread does not hold the lock
     * @throws ConcurrentModificationException if the hold had expired or was taken over
     */
    @Override
    public void unlock() {
        boolean last = lock.holdCount() == 1;
        try {
            lock.unlock();
        } catch (IllegalMonitorStateException notHeld) {
            throw new IllegalStateException("You do not own lock at '" + name() + "': the current thread does not "
                    + "hold it", notHeld);
        } catch (LockLostException lost) {
            throw new ConcurrentModificationException("Lock was released in the store due to expiration. The "
                    + "integrity of data protected by lock '" + name() + "' may have been compromised: "
                    + lost.getMessage(), lost);
        } finally {
            if (last) {
                held = false;
            }
        }
    }

    /** Conditions are not supported by distributed locks. */
    @Override
    public Condition newCondition() {
        return lock.newCondition();
    }

    /** When this process last acquired the lock ({@link System#currentTimeMillis()}), 0 if never. */
    long lockedAt() {
        return lockedAt;
    }

    /** Whether a thread of this process holds the lock through this handle. */
    boolean isHeld() {
        return held;
    }

    private boolean acquiring(Duration ttl, Acquisition acquisition) throws InterruptedException {
        boolean acquired;
        try {
            acquired = acquisition.run();
        } catch (LockBackendException failed) {
            throw cannotAcquire(failed);
        }
        if (acquired) {
            acquired(ttl);
        }
        return acquired;
    }

    /** A new hold, or a re-entry that sets the time to live again, as Spring Integration's locks do. */
    private void acquired(Duration ttl) {
        lockedAt = System.currentTimeMillis();
        if (lock.holdCount() == 1) {
            held = true;
        } else if (!registry.renews()) {
            try {
                lock.extend(registry.ttl(ttl));
            } catch (RuntimeException notExtended) {
                lock.unlock(); // gives the re-entry back: the thread's earlier holds stay
                throw notExtended instanceof LockBackendException failed ? cannotAcquire(failed) : notExtended;
            }
        }
    }

    private CannotAcquireLockException cannotAcquire(LockBackendException failed) {
        return new CannotAcquireLockException("Failed to lock mutex at '" + name() + "': " + failed.getMessage(),
                failed);
    }

    @Override
    public String toString() {
        return "DistlockIntegrationLock[" + name() + "]";
    }

    /** An acquisition of the distlock lock, with the lease of the call. */
    @FunctionalInterface
    private interface Acquisition {
        boolean run() throws InterruptedException;
    }
}
