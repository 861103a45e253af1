package dev.distlock.core.spi;

/**
 * A semaphore with leased permits per name, a capability a {@link LockStore} offers
 * ({@link StoreCapabilities#permits()}): the try that takes permits of a name instead of its exclusive lock. Each
 * taking is a hold of its own, with its token, lease and fencing token; every other operation on it is the store's
 * ordinary owner-checked one by {@code (name, token)} ({@link LockStore#release}, {@link LockStore#abandon},
 * {@link LockStore#extend}, {@link LockStore#renew}, {@link LockStore#remainingLeaseMillis},
 * {@link WaitQueue#leaveQueue}), which the store applies to the name's permits. Each holder's lease runs out on its
 * own, so a dead holder's permits return at its lease end. Fencing tokens grow per name across all its holders.
 *
 * <p>A name is a semaphore or a lock, not both at once: a try of the other kind while it is in use fails.
 */
public interface PermitClaims {

    /**
     * Takes {@code permits} of the name's {@code limit} for {@code token} if they fit beside the live holders' and no
     * live waiter is queued before the caller; or finds that they were handed to {@code token} (a release let it in)
     * and extends them to {@code leaseMillis}. Otherwise, if asked, queues the caller or moves its entry's deadline. A
     * release hands freed permits to the waiters at the head of the queue, in order, as long as each one's fit, with
     * a claim lease as for the lock.
     *
     * @param permits how many permits, at least 1 and at most {@code limit}
     * @param limit how many permits the name has, as this process declares it
     * @throws IllegalStateException if the name is in use with another {@code limit} (declared by the processes that
     *         hold or wait for its permits now), or as a lock
     */
    AcquireResult takePermits(String name, String token, int permits, int limit, long leaseMillis, boolean queue,
            long waiterTimeoutMillis);

    /**
     * Keeps only {@code permits} of the permits {@code token} holds, its lease and fencing token unchanged, and hands
     * the permits it gives up to the waiters at the head of the queue that fit, as a release does: how the writer of a
     * read-write lock (every permit) becomes one of its readers with no other writer in between (a downgrade). Run
     * again, it changes nothing.
     *
     * @param permits how many it keeps, at least 1; as many as it holds or more change nothing
     * @return whether {@code token} holds permits of the name (false: its hold expired or was taken over)
     */
    boolean keepPermits(String name, String token, int permits);
}
