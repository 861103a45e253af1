package dev.distlock.core.spi;

/**
 * A store whose waiters queue ({@link StoreCapabilities#queue()}): its {@link LockStore#tryAcquire} honours
 * {@code queue}, a release hands the lock to the first live waiter, and a waiter that gives up leaves the queue here.
 * A store without it ignores {@code queue}; its waiters give up with {@link LockStore#abandon}.
 */
@FunctionalInterface
public interface WaitQueue {

    /**
     * Takes {@code token} out of the queue: its acquisition gives up.
     *
     * @return acquired, with the fencing token and the lease extended to {@code leaseMillis}, if the lock was
     *         handed to {@code token} before it left
     */
    AcquireResult leaveQueue(String name, String token, long leaseMillis);
}
