package dev.distlock.core;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Hands out distributed locks by name.
 *
 * <p>Two registries that share a backend (two processes on one Redis) exclude each other for the same
 * name. Handles are cheap views: {@link #obtain(String)} may be called for every use, and a registry keeps
 * state only for names that are held or waited for right now.
 *
 * <pre>{@code
 * FencedLock lock = registry.obtain("order:42");
 * if (lock.tryLock(Duration.ofSeconds(5))) {
 *     try {
 *         repository.save(order.withFence(lock.fencingToken()));
 *     } finally {
 *         lock.unlock();
 *     }
 * }
 * }</pre>
 */
public interface LockRegistry {

    /**
     * Returns the lock for {@code name} with the registry's default lease, renewed by the watchdog while
     * the lock is held.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     */
    default FencedLock obtain(String name) {
        return obtain(name, Lease.renewed());
    }

    /**
     * Returns the lock for {@code name} whose holds live by the given lease.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     */
    default FencedLock obtain(String name, Lease lease) {
        return obtain(name, lease, null);
    }

    /**
     * Returns the lock for {@code name} whose holds live by the given lease and carry {@code label} into
     * every {@link LockEvent}. A label names where the lock is used (e.g. {@code "OrderService.pay"}) and
     * comes from a small fixed set, unlike names such as {@code "order:12345"}: metrics tag by label.
     *
     * @param label the label, or {@code null} for none
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     */
    FencedLock obtain(String name, Lease lease, String label);

    /**
     * The locks this registry holds now, with their remaining leases (one backend call per hold): for
     * monitoring, not for deciding anything.
     */
    List<HeldLock> heldLocks();

    /**
     * What the backend knows of lock {@code name} right now, whoever holds it, from any process: who holds
     * it (application, host, process), since when, with which fencing token and lease left, and how many
     * wait. For operators; it costs a couple of backend calls and decides nothing. It never releases or
     * changes anything.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     * @throws LockBackendException if the backend failed
     */
    LockInfo inspect(String name);

    /**
     * Acquires the lock for {@code name}, waiting at most {@code wait}, runs {@code task} and releases
     * the lock whatever the task does.
     *
     * @param wait how long to wait for the lock; {@link Duration#ZERO} means exactly one try
     * @return what the task returned
     * @throws LockTimeoutException if the lock could not be acquired within {@code wait}; the task did not run
     * @throws LockInterruptedException if the thread was interrupted while waiting; the task did not run
     *         and the thread's interrupt flag is set again
     * @throws LockLostException if the task ran but the lock expired or was taken before it was released
     * @throws E whatever the task throws
     */
    default <T, E extends Throwable> T executeLocked(String name, Duration wait, LockedTask<T, E> task) throws E {
        return executeLocked(name, Lease.renewed(), wait, task);
    }

    /**
     * Like {@link #executeLocked(String, Duration, LockedTask)} with an explicit lease.
     */
    default <T, E extends Throwable> T executeLocked(String name, Lease lease, Duration wait, LockedTask<T, E> task)
            throws E {
        Objects.requireNonNull(task, "task");
        FencedLock lock = obtain(name, lease);
        boolean acquired;
        try {
            acquired = lock.tryLock(wait);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(name, ex);
        }
        if (!acquired) {
            throw new LockTimeoutException(name, wait);
        }
        T result;
        try {
            result = task.run();
        } catch (Throwable failure) {
            unlockAfterFailure(lock, failure);
            throw failure;
        }
        lock.unlock();
        return result;
    }

    /**
     * Like {@link #executeLocked(String, Duration, LockedTask)} for a task without a result.
     */
    default void executeLocked(String name, Duration wait, Runnable task) {
        executeLocked(name, wait, () -> {
            task.run();
            return null;
        });
    }

    private static void unlockAfterFailure(FencedLock lock, Throwable failure) {
        try {
            lock.unlock();
        } catch (RuntimeException releaseFailure) {
            failure.addSuppressed(releaseFailure);
        }
    }
}
