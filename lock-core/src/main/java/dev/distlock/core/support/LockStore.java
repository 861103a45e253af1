package dev.distlock.core.support;

/**
 * The atomic operations a lock backend provides. Each method is one indivisible step in the backend; the
 * {@link StoreLockRegistry} builds waiting, re-entrancy and renewal on top. Every operation that changes or
 * reads a hold compares the owner token first: no operation may touch a key held under another token.
 *
 * <p>Implementations report backend failures as unchecked exceptions; the registry wraps them.
 */
public interface LockStore extends AutoCloseable {

    /**
     * Takes the lock if nobody holds it, with a new fencing token larger than every one issued for the name.
     *
     * @param token unique to this acquisition
     * @param leaseMillis how long the hold lives unless extended
     * @param waiting whether the caller will wait for a release if the lock is held (so a release must
     *        notify it)
     */
    AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean waiting);

    /**
     * Deletes the hold if it is held under {@code token}.
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
     * Calls {@code onRelease} whenever a hold of {@code name} is released, until the returned
     * subscription is closed. Notifications may be lost; callers poll as well.
     */
    Subscription onRelease(String name, Runnable onRelease);

    /** Frees the store's resources. */
    @Override
    void close();

    /** An active release notification. */
    interface Subscription extends AutoCloseable {

        /** Stops the notifications. */
        @Override
        void close();
    }
}
