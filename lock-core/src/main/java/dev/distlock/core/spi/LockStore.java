package dev.distlock.core.spi;

/**
 * The atomic, owner-checked operations a lock backend provides. Each method is one indivisible step in the backend;
 * the {@link dev.distlock.core.support.StoreLockRegistry} builds waiting, re-entrancy, renewal and the local view of
 * time on top. Every operation that changes or reads a hold compares the owner token first: no operation may touch a
 * key held under another token.
 *
 * <p><b>Waiters queue in the backend</b>, if the store offers a {@linkplain StoreCapabilities#queue() queue}. Each
 * queue entry has its own deadline on the backend's clock, refreshed by its owner's tries; entries past their
 * deadline are skipped and dropped by every operation that looks at the queue. A release with live waiters queued
 * does not free the lock but hands it to the first of them, with a new fencing token and a short claim lease (the
 * waiter's {@code waiterTimeout}), and tells its process (if the store offers
 * {@linkplain StoreCapabilities#handOffs() notices}). The waiter then confirms the hold by {@link #extend extending}
 * it to its full lease, so a waiter that died while queued blocks the lock for one claim at most. A lock whose lease
 * ran out while waiters are queued goes to the first of them too, never to a newcomer.
 *
 * <p><b>Replays are harmless.</b> A client may send a command again after a reconnect. Every operation is
 * idempotent for its own token: a repeated try reports the hold it made, a repeated release reports the
 * release it made, however many owners held the lock since, as long as the store kept the name's fencing tokens
 * since that release (the name was not lost meanwhile: no hold of it ran out, was deleted or was
 * {@linkplain ForcedRelease force-released}, and a freed name was taken again within the fence retention). A release
 * carries its hold's fencing token for that: a token the store issued since it last lost the name was issued for a
 * hold that ended by its owner's release.
 *
 * <p>Implementations report backend failures as unchecked exceptions, which the store's
 * {@linkplain StoreCapabilities#failures() classifier} explains to the engine; the registry wraps them.
 *
 * <p>These operations are all the engine needs; everything else a store may offer (reads, notices, announcements,
 * an asynchronous client, fewer round trips) is a capability, described by one {@link StoreCapabilities} value.
 */
public interface LockStore extends AutoCloseable {

    /** The lease left of a lock that never expires (a key someone set without expiry), wherever a lease is told. */
    long NEVER_EXPIRES = Long.MAX_VALUE;

    /**
     * Takes the lock if nobody holds it (and no live waiter is queued before the caller), with a new fencing
     * token larger than every one issued for the name; or finds that the lock was handed to {@code token},
     * and then extends it to {@code leaseMillis}.
     *
     * @param token unique to this acquisition; the same on every try of one acquisition
     * @param leaseMillis how long the hold lives unless extended
     * @param queue whether to queue the token (or refresh its entry) if the lock is held by someone else; always
     *        false for a store without a {@linkplain StoreCapabilities#queue() queue}
     * @param waiterTimeoutMillis how long the token's queue entry lives after this try, and the claim lease
     *        of a hand-off to it
     */
    AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue, long waiterTimeoutMillis);

    /**
     * Releases the hold if it is held under {@code token}: hands it to the first live waiter, or frees it.
     *
     * @param fencingToken the hold's fencing token, by which a release run again recognises that its first run
     *        released the hold, whoever holds the lock since
     * @return whether it was held under the token (false: expired and taken, deleted or taken over), or was
     *         released by a first run of this release
     */
    boolean release(String name, String token, long fencingToken);

    /**
     * Takes {@code token} out of the queue and releases the lock if it is held under {@code token}: the
     * clean-up of an acquisition whose outcome is unknown (failed, timed out, interrupted).
     */
    void abandon(String name, String token);

    /**
     * Sets the remaining lease of the hold to {@code leaseMillis} if it is held under {@code token}.
     *
     * @return whether it was held under the token
     */
    boolean extend(String name, String token, long leaseMillis);

    /**
     * Makes the remaining lease of the hold at least {@code leaseMillis} if it is held under {@code token}, never
     * shorter: a renewal (or a hand-off's confirmation) that reaches the store after an {@link #extend} cannot cut
     * back the lease that set.
     *
     * @return whether it was held under the token
     */
    boolean renew(String name, String token, long leaseMillis);

    /**
     * The remaining lease in milliseconds of the hold under {@code token}; {@link #NEVER_EXPIRES} if it
     * never expires, or a negative number if it is not held under the token.
     */
    long remainingLeaseMillis(String name, String token);

    /** What this store offers beyond the operations above; the engine asks once, when its registry is built. */
    StoreCapabilities capabilities();

    /** Frees the store's resources. */
    @Override
    void close();
}
