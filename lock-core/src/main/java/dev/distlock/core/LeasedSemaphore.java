package dev.distlock.core;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

/**
 * A semaphore across processes with leased permits: at most {@link #permits()} permits of a name are held at once,
 * across every process that shares the backend, and each taking is a hold of its own, as a lock's is: a
 * {@link DetachedLock} with its own fencing token (larger than every earlier one of the name), a lease renewed by
 * the watchdog (or fixed), a loss found at its local deadline and reported, released from any thread. A holder that
 * dies gives its permits back when its lease runs out; waiters are served in arrival order, and a release hands the
 * freed permits to the waiters at the head of the queue, each as soon as its count fits.
 *
 * <pre>{@code
 * LeasedSemaphore supplier = registry.semaphore("supplier-api", 5);   // at most 5 calls at once, cluster-wide
 * DetachedLock permit = supplier.tryAcquire(Duration.ofSeconds(2));
 * if (permit != null) {
 *     try {
 *         client.call(request);
 *     } finally {
 *         permit.unlock();
 *     }
 * }
 * }</pre>
 *
 * <p>Every process must declare the same number of permits for a name: a taking that declares another number while
 * the name's permits are held or waited for fails with a {@link LockBackendException} naming both
 * numbers, never a silent mix. A name is a semaphore or a lock while it is in use, not both.
 * Permits are not re-entrant: each taking takes permits of its own, also from the thread that holds some.
 *
 * @since 0.1.0
 */
public interface LeasedSemaphore {

    /** The semaphore's name. */
    String name();

    /** How many permits the semaphore has. */
    int permits();

    /**
     * Takes one permit, waiting at most {@code wait}.
     *
     * @return the hold of the permit, or {@code null} if none was free within the wait
     * @throws InterruptedException if the thread was interrupted while it waited
     * @throws LockBackendException if the backend failed, or the name's permits are declared differently elsewhere
     */
    default DetachedLock tryAcquire(Duration wait) throws InterruptedException {
        return tryAcquire(1, wait);
    }

    /**
     * Takes {@code count} permits at once, all or none, waiting at most {@code wait}.
     *
     * @return the hold of the permits, or {@code null} if they were not free within the wait
     * @throws IllegalArgumentException if {@code count} is below 1 or above {@link #permits()}
     * @throws InterruptedException if the thread was interrupted while it waited
     */
    DetachedLock tryAcquire(int count, Duration wait) throws InterruptedException;

    /** Takes one permit, waiting as long as it takes. */
    default DetachedLock acquire() throws InterruptedException {
        return tryAcquire(1, Duration.ofNanos(Long.MAX_VALUE));
    }

    /**
     * {@link #tryAcquire(int, Duration)} without blocking the caller: the stage completes with the hold, or
     * {@code null} if the permits were not free within the wait; cancelling it withdraws the wait (permits taken
     * meanwhile are given back).
     */
    CompletionStage<DetachedLock> tryAcquireAsync(int count, Duration wait);

    /** {@link #tryAcquireAsync(int, Duration)} of one permit. */
    default CompletionStage<DetachedLock> tryAcquireAsync(Duration wait) {
        return tryAcquireAsync(1, wait);
    }

    /** One permit, without blocking the caller and without a limit on the wait. */
    default CompletionStage<DetachedLock> acquireAsync() {
        return tryAcquireAsync(1, Duration.ofNanos(Long.MAX_VALUE));
    }

    /**
     * A new lock-shaped handle on one permit, for code written for a {@link FencedLock} (the annotation,
     * {@code executeLocked}-style helpers): {@code lock()} and {@code tryLock} take a permit for the calling thread,
     * {@code unlock()} gives it back; the holder thread may lock the handle again (a count, not a second permit),
     * and {@code detach()} or {@code tryLockAsync} give the permit as a {@link DetachedLock}. One handle holds one
     * permit at a time: take a handle per caller. {@link FencedLock#isLocked()} tells whether this handle holds a
     * permit.
     */
    FencedLock asLock();
}
