package dev.distlock.core.spi;

import java.util.List;
import java.util.Map;

/**
 * The atomic operations a lock backend provides. Each method is one indivisible step in the backend; the
 * {@link dev.distlock.core.support.StoreLockRegistry} builds waiting, re-entrancy, renewal and the local view of time on top. Every
 * operation that changes or reads a hold compares the owner token first: no operation may touch a key held
 * under another token.
 *
 * <p><b>Waiters queue in the backend.</b> Each queue entry has its own deadline on the backend's clock,
 * refreshed by its owner's tries; entries past their deadline are skipped and dropped by every operation
 * that looks at the queue. A release with live waiters queued does not free the lock but hands it to the
 * first of them, with a new fencing token and a short claim lease (the waiter's {@code waiterTimeout}),
 * and tells its process (if the store offers {@linkplain #handOffs() notices}). The waiter then confirms the hold by {@link #extend extending}
 * it to its full lease, so a waiter that died while queued blocks the lock for one claim at most. A lock
 * whose lease ran out while waiters are queued goes to the first of them too, never to a newcomer.
 *
 * <p><b>Replays are harmless.</b> A client may send a command again after a reconnect. Every operation is
 * idempotent for its own token: a repeated try reports the hold it made, a repeated release reports the
 * release it made, however many owners held the lock since, as long as the store kept the name's fencing tokens
 * since that release (the name was not lost meanwhile: no hold of it ran out, was deleted or was
 * {@linkplain #forceRelease force-released}, and a freed name was taken again within the fence retention). A release
 * carries its hold's fencing token for that: a token the store issued since it last lost the name was issued for a
 * hold that ended by its owner's release.
 *
 * <p>Implementations report backend failures as unchecked exceptions, which {@link #classify} explains to the engine;
 * the registry wraps them.
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
     * @param queue whether to queue the token (or refresh its entry) if the lock is held by someone else
     * @param waiterTimeoutMillis how long the token's queue entry lives after this try, and the claim lease
     *        of a hand-off to it
     */
    AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue, long waiterTimeoutMillis);

    /**
     * Takes {@code token} out of the queue: its acquisition gives up.
     *
     * @return acquired, with the fencing token and the lease extended to {@code leaseMillis}, if the lock was
     *         handed to {@code token} before it left
     */
    AcquireResult leaveQueue(String name, String token, long leaseMillis);

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
     * {@link #release} of {@code token}'s hold, then {@link #tryAcquire} for {@code next}, as one step where the store
     * can ({@link #passesOn()}): how the engine hands a lock to the next caller of its own waiting for the name,
     * in one call rather than two. Each part means what its method means; a store whose queue holds waiters of other
     * processes lets them go first, as its release would. The default makes the two calls.
     *
     * @param token the releasing hold's owner token
     * @param fencingToken the releasing hold's fencing token, as for {@link #release}
     * @param next the next caller's token, which tries with {@code leaseMillis}, {@code queue} and
     *        {@code waiterTimeoutMillis} as in {@link #tryAcquire}
     */
    default PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis,
            boolean queue, long waiterTimeoutMillis) {
        boolean released = release(name, token, fencingToken);
        return new PassOn(released, tryAcquire(name, next, leaseMillis, queue, waiterTimeoutMillis));
    }

    /**
     * Whether {@link #passOn} is one call to the backend, asked at each release: only then does the engine hand a
     * lock to its next local caller through it. False by default.
     */
    default boolean passesOn() {
        return false;
    }

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
     * {@link #renew} of several holds, in as few calls as the backend allows (the engine gathers the renewals that
     * fall due together): what each answer means is {@code renew}'s. The default renews them one by one; a store
     * that overrides it says so with {@link #renewsInBatches()}.
     *
     * @return for each renewal, in order, whether its hold was held under its token
     */
    default boolean[] renewAll(List<Renewal> renewals) {
        boolean[] owned = new boolean[renewals.size()];
        for (int i = 0; i < owned.length; i++) {
            Renewal renewal = renewals.get(i);
            owned[i] = renew(renewal.name(), renewal.token(), renewal.leaseMillis());
        }
        return owned;
    }

    /**
     * Whether {@link #renewAll} renews a batch in one call (which answers or fails for all of it); if not, the engine
     * sends a batch's renewals side by side on its threads rather than one after another.
     */
    default boolean renewsInBatches() {
        return false;
    }

    /**
     * If the lock is held under {@code token}, makes {@code fencingToken} the last one issued for the name
     * when it is larger than the kept one, so that every later token is larger still: how a store made of
     * several backends (Redlock) makes the token it chose, the largest of its majority, binding on each of them.
     *
     * @return whether the lock is held under the token
     * @throws UnsupportedOperationException if the store cannot (the default)
     */
    default boolean raiseFence(String name, String token, long fencingToken) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot raise fencing tokens");
    }

    /**
     * Ends the hold of {@code name} whose fencing token is {@code fencingToken}, whoever owns it, as its owner's
     * release would (handed to the first live waiter, or freed with its last token kept): an operator's way out of a
     * hung holder, which keeps renewing. Only that very hold: if the lock is free, or held with another fencing token
     * (a later holder's), nothing changes. The hold ends without its owner's release, so it counts as lost: its
     * owner's next renewal, extension or release finds it not held (a release run again never reports it released),
     * and the next holder's fencing token is larger than {@code fencingToken}.
     *
     * @param fencingToken the hold's fencing token, as {@link #inspect} showed it; {@code 0} (unknown) matches nothing
     * @return whether that hold was held and is now ended
     * @throws UnsupportedOperationException if the store cannot (the default)
     */
    default boolean forceRelease(String name, long fencingToken) {
        throw new UnsupportedOperationException(getClass().getSimpleName() + " cannot force a release");
    }

    /**
     * The remaining lease in milliseconds of the hold under {@code token}; {@link #NEVER_EXPIRES} if it
     * never expires, or a negative number if it is not held under the token.
     */
    long remainingLeaseMillis(String name, String token);

    /** Whether anybody holds the lock. */
    boolean isLocked(String name);

    /**
     * What the store knows of the lock now: its owner token, fencing token, lease left and live waiters (how many,
     * and the first {@link LockSnapshot#MAX_WAITER_TOKENS} of their tokens in queue order).
     */
    LockSnapshot inspect(String name);

    /**
     * Records who a registry is ({@code description}: application, host, pid, start) under its instance id
     * for {@code ttlMillis}, so that {@link #announcement} can tell who holds a lock. Called again before it
     * expires while the registry is open.
     */
    void announce(String instance, Map<String, String> description, long ttlMillis);

    /** What registry {@code instance} last announced, or an empty map if nothing (any more). */
    Map<String, String> announcement(String instance);

    /**
     * This store's operations sent without blocking the caller, if its client is asynchronous; {@code null} (the
     * default) if its calls block, and the engine then makes them on a bounded pool for non-blocking callers and the
     * background. Blocking callers use the methods above on their own thread either way.
     */
    default AsyncLockStore async() {
        return null;
    }

    /**
     * How this store tells waiters that a release handed them the lock; {@link HandOffNotices#NONE} by default (its
     * waiters poll).
     */
    default HandOffNotices handOffs() {
        return HandOffNotices.NONE;
    }

    /**
     * What {@code failure}, thrown by one of this store's operations, means: refused for a moment, in doubt (it may
     * have run) or permanent. {@link StoreFailure#PERMANENT} by default.
     */
    default StoreFailure classify(RuntimeException failure) {
        return StoreFailure.PERMANENT;
    }

    /** Frees the store's resources. */
    @Override
    void close();
}
