package dev.distlock.core.support;

import java.util.function.LongConsumer;

/**
 * The atomic operations a lock backend provides. Each method is one indivisible step in the backend; the
 * {@link StoreLockRegistry} builds waiting, re-entrancy and renewal on top. Every operation that changes or
 * reads a hold compares the owner token first: no operation may touch a key held under another token.
 *
 * <p>Waiters queue in the backend: a release with waiters queued does not free the lock but hands it to
 * the first of them, with a new fencing token, and tells its process ({@link #onGrant}).
 * So the lock passes in arrival order and the next owner needs no backend call to learn it won.
 *
 * <p>Implementations report backend failures as unchecked exceptions; the registry wraps them.
 */
public interface LockStore extends AutoCloseable {

    /**
     * Takes the lock if nobody holds it, with a new fencing token larger than every one issued for the name,
     * or reports that a release handed it to {@code token}.
     *
     * @param token unique to this acquisition; the same on every try of one acquisition
     * @param leaseMillis how long the hold lives unless extended
     * @param queue what to do if the lock is held by someone else
     */
    AcquireResult tryAcquire(String name, String token, long leaseMillis, Queue queue);

    /**
     * Takes {@code token} out of the queue: its acquisition gives up.
     *
     * @return acquired, with the fencing token, if a release handed the lock to {@code token} before it left
     */
    AcquireResult leaveQueue(String name, String token, long leaseMillis);

    /**
     * Releases the hold if it is held under {@code token}: hands it to the first queued waiter, or deletes it.
     *
     * @return whether it was held under the token (false: expired, deleted or taken over)
     */
    boolean release(String name, String token);

    /**
     * Sets the remaining lease of the hold to {@code leaseMillis} if it is held under {@code token}.
     *
     * @return whether it was held under the token
     */
    boolean extend(String name, String token, long leaseMillis);

    /**
     * The remaining lease in milliseconds of the hold under {@code token}; {@link Long#MAX_VALUE} if it
     * never expires, or a negative number if it is not held under the token.
     */
    long remainingLeaseMillis(String name, String token);

    /** Whether anybody holds the lock. */
    boolean isLocked(String name);

    /**
     * Whether hand-offs of {@code name} are already being heard, so that {@link #onGrant} costs no backend
     * call now and a waiter may queue on its first try.
     */
    boolean listening(String name);

    /**
     * Calls {@code onGrant} with the fencing token if a release hands {@code name} to {@code token}, until the
     * returned subscription is closed. Notices may be lost; waiters ask the store again now and then.
     */
    Subscription onGrant(String name, String token, LongConsumer onGrant);

    /** Frees the store's resources. */
    @Override
    void close();

    /** What a try does when someone else holds the lock. */
    enum Queue {

        /** Nothing: the caller does not wait. */
        NONE,

        /** Queue the token for a hand-off. */
        JOIN,

        /** The token was queued before: queue it again if its entry is gone, and keep the queue alive. */
        STAY
    }

    /** An active hand-off notification. */
    interface Subscription extends AutoCloseable {

        /** Stops the notifications. */
        @Override
        void close();
    }
}
