package dev.distlock.core;

import java.time.Duration;

/**
 * A hold that no thread owns any more: the result of {@link FencedLock#detach()}. Whoever has it may
 * release it, from any thread, exactly once. Typical use is asynchronous work:
 *
 * <pre>{@code
 * lock.lock();
 * DetachedLock hold = lock.detach();
 * CompletableFuture.runAsync(work).whenComplete((result, error) -> hold.unlock());
 * }</pre>
 */
public interface DetachedLock {

    /** The lock's name. */
    String name();

    /** The fencing token of this hold. */
    long fencingToken();

    /** Whether this hold is neither released nor known to be lost. */
    boolean isHeld();

    /**
     * Releases the hold in the backend.
     *
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockLostException if the hold had expired or was taken over; the other owner's key is untouched
     * @throws LockBackendException if the backend failed; the key then expires with its lease
     */
    void unlock();

    /**
     * Releases the hold, but leaves the lock taken in the backend for {@code delay} more: see
     * {@link FencedLock#unlockAfter(Duration)}.
     *
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockLostException if the hold had expired or was taken over; the other owner's key is untouched
     * @throws LockBackendException if the backend failed; the key then expires with its lease
     */
    void unlockAfter(Duration delay);

    /**
     * Sets the remaining lease of this hold to {@code lease}; a renewed hold is renewed to this length from
     * now on.
     *
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockLostException if the hold had expired or was taken over
     */
    void extend(Duration lease);

    /**
     * The time left before this hold expires unless renewed, as {@link FencedLock#remainingLease()} tells it;
     * {@link Duration#ZERO} if the hold is lost.
     *
     * @throws IllegalMonitorStateException if it was released already
     */
    Duration remainingLease();
}
