package dev.distlock.core;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.function.Supplier;

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
     * Returns one lock on all of {@code names}, with the registry's default lease, renewed while held: see
     * {@link #obtainAll(Collection, Lease, String)}.
     *
     * @throws InvalidLockNameException if a name is empty, too long or not valid UTF-16
     * @throws IllegalArgumentException if {@code names} is empty
     */
    default FencedLock obtainAll(Collection<String> names) {
        return obtainAll(names, Lease.renewed(), null);
    }

    /**
     * Returns one lock on all of {@code names} at once: acquired when every name is, all or nothing within one wait,
     * released all together. The names are taken in one canonical order (sorted, each once) whatever order they are
     * listed in, so callers locking overlapping sets in any order never deadlock; duplicates are harmless. Each name
     * is an ordinary lock of this registry (on a cluster the names may live on different slots), with a fencing
     * token of its own ({@link FencedLock#fencingTokens()}; {@link FencedLock#fencingToken()} throws unless the set
     * comes down to one name, whose own lock is then returned).
     *
     * <pre>{@code
     * FencedLock both = registry.obtainAll(List.of("account:" + from, "account:" + to));
     * if (both.tryLock(Duration.ofSeconds(5))) {
     *     try {
     *         ledger.transfer(from, to, amount, both.fencingTokens());
     *     } finally {
     *         both.unlock();
     *     }
     * }
     * }</pre>
     *
     * @param label the label of every name's lock, or {@code null} for none
     * @throws InvalidLockNameException if a name is empty, too long or not valid UTF-16
     * @throws IllegalArgumentException if {@code names} is empty
     */
    FencedLock obtainAll(Collection<String> names, Lease lease, String label);

    /**
     * The semaphore {@code name} with {@code permits} leased permits, each taking with the registry's default lease,
     * renewed while held: see {@link LeasedSemaphore}.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     * @throws IllegalArgumentException if {@code permits} is below 1
     * @throws UnsupportedOperationException if the registry's backend offers no semaphores
     * @since 0.1.0
     */
    default LeasedSemaphore semaphore(String name, int permits) {
        return semaphore(name, permits, Lease.renewed(), null);
    }

    /**
     * The semaphore {@code name} with {@code permits} leased permits, each taking living by {@code lease} and
     * carrying {@code label} into every {@link LockEvent}, as {@link #obtain(String, Lease, String)}'s.
     *
     * @throws UnsupportedOperationException if the registry's backend offers no semaphores (the default)
     * @since 0.1.0
     */
    default LeasedSemaphore semaphore(String name, int permits, Lease lease, String label) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " offers no semaphores");
    }

    /**
     * The read-write lock {@code name}, each hold with the registry's default lease, renewed while held: see
     * {@link FencedReadWriteLock}.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     * @throws UnsupportedOperationException if the registry's backend offers no read-write locks
     * @since 0.1.0
     */
    default FencedReadWriteLock readWriteLock(String name) {
        return readWriteLock(name, Lease.renewed(), null);
    }

    /**
     * The read-write lock {@code name}, each hold living by {@code lease} and carrying {@code label} into every
     * {@link LockEvent}, as {@link #obtain(String, Lease, String)}'s.
     *
     * @throws UnsupportedOperationException if the registry's backend offers no read-write locks (the default)
     * @since 0.1.0
     */
    default FencedReadWriteLock readWriteLock(String name, Lease lease, String label) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " offers no read-write locks");
    }

    /**
     * The locks this registry holds now, with their remaining leases (one backend call per hold): for
     * monitoring, not for deciding anything.
     *
     * @throws LockBackendException if reading a hold's lease failed (no list is returned then)
     */
    List<HeldLock> heldLocks();

    /**
     * What the backend knows of lock {@code name} right now, whoever holds it, from any process: who holds
     * it (application, host, process), since when, with which fencing token and lease left, how many
     * wait, and which processes wait, in the order the lock goes to them ({@link LockInfo#queue()}). For
     * operators; it costs a couple of backend calls (and one for each waiting process this registry has not
     * named before) and decides nothing. It never releases or changes anything.
     *
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     * @throws LockBackendException if the backend failed
     */
    LockInfo inspect(String name);

    /**
     * Ends the hold of {@code name} whose fencing token is {@code fencingToken}, whoever holds it, in any process: an
     * operator's way out of a holder that hangs but keeps renewing. The caller passes the fencing token it saw in
     * {@link #inspect}, so only that hold ends: if the lock is free, or held since by a later holder (a larger
     * token), nothing changes. The lock goes to the first live waiter, or is freed, as by its owner's release.
     *
     * <p>The hold counts as lost: its owner finds out at its next renewal, extension or release
     * ({@link LockListener#onLost} then, or {@link LockLostException} from the release), and every later holder's
     * fencing token is larger, so a resource that checks fencing tokens refuses the former holder's late writes. The
     * former holder's code is not stopped: only fencing keeps its writes out.
     *
     * @param fencingToken the hold's fencing token, as {@link LockInfo#fencingToken()} showed it
     * @return whether that hold was held and is now ended
     * @throws InvalidLockNameException if the name is empty, too long or not valid UTF-16
     * @throws LockBackendException if the backend failed (it may have ended the hold or not)
     * @throws UnsupportedOperationException if the registry's backend cannot (the default)
     */
    default boolean forceRelease(String name, long fencingToken) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot force a release");
    }

    /**
     * Acquires the lock for {@code name}, waiting at most {@code wait}, runs {@code task} and releases
     * the lock whatever the task does.
     *
     * @param wait how long to wait for the lock; {@link Duration#ZERO} means exactly one try
     * @return what the task returned
     * @throws LockTimeoutException if the lock could not be acquired within {@code wait}; the task did not run. It
     *         names who held the lock when the wait ran out (one read of the backend, only then)
     * @throws LockInterruptedException if the thread was interrupted while waiting; the task did not run
     *         and the thread's interrupt flag is set again
     * @throws LockLostException if the task ran but the lock expired or was taken before it was released
     * @throws LockBackendException if the backend failed: permanently, or transiently through the whole wait (the
     *         task did not run), or in the release after the task ran
     * @throws IllegalStateException if the registry is closed, or closes while the call waits
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
        return executeLocked(obtain(name, lease), wait, task,
                () -> LockTimeoutException.heldNow(this, List.of(name)));
    }

    /**
     * Like {@link #executeLocked(String, Duration, LockedTask)} on all of {@code names} at once
     * ({@link #obtainAll(Collection)}): all or nothing within {@code wait}, in any order without deadlock.
     */
    default <T, E extends Throwable> T executeLocked(Collection<String> names, Duration wait, LockedTask<T, E> task)
            throws E {
        return executeLocked(obtainAll(names), wait, task,
                () -> LockTimeoutException.heldNow(this, new TreeSet<>(names).stream().toList()));
    }

    private static <T, E extends Throwable> T executeLocked(FencedLock lock, Duration wait, LockedTask<T, E> task,
            Supplier<List<LockInfo>> heldOnTimeout) throws E {
        Objects.requireNonNull(task, "task");
        String name = lock.name();
        boolean acquired;
        try {
            acquired = lock.tryLock(wait);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(name, ex);
        }
        if (!acquired) {
            throw new LockTimeoutException(name, wait, heldOnTimeout.get());
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
        executeLocked(name, wait, withoutResult(task));
    }

    /**
     * Like {@link #executeLocked(Collection, Duration, LockedTask)} for a task without a result.
     */
    default void executeLocked(Collection<String> names, Duration wait, Runnable task) {
        executeLocked(names, wait, withoutResult(task));
    }

    private static LockedTask<Void, RuntimeException> withoutResult(Runnable task) {
        Objects.requireNonNull(task, "task");
        return () -> {
            task.run();
            return null;
        };
    }

    private static void unlockAfterFailure(FencedLock lock, Throwable failure) {
        try {
            lock.unlock();
        } catch (RuntimeException releaseFailure) {
            failure.addSuppressed(releaseFailure);
        }
    }
}
