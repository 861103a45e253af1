package dev.distlock.core.spi;

import java.util.List;

/**
 * What a store knows of one lock at one moment ({@link LockReads#inspect}).
 *
 * @param ownerToken the token of the current hold, or {@code null} if nobody holds the lock
 * @param fencingToken the current hold's fencing token, or 0 if free or not known
 * @param remainingLeaseMillis the lease left; 0 if free, {@link LockStore#NEVER_EXPIRES} if it never expires
 * @param waiting how many live entries the lock's queue has
 * @param waiterTokens the tokens of the queue's live entries in the order they would be handed the lock (the oldest
 *        first), at most the first {@link #MAX_WAITER_TOKENS} of them ({@code waiting} counts them all); empty if
 *        the store has no queue or does not tell it. Never {@code null}
 * @param holds how many live holds the name has: 0 or 1 for a lock; for counted claims (a semaphore's permits, a
 *        read-write lock's readers or writer) each taking, and the other components describe the newest of them
 *        (the largest fencing token)
 * @param permitsInUse how many permits those holds have together; 0 for a lock
 * @param permits how many permits the name has (a read-write lock's 2^20: a writer holds them all); 0 for a lock
 */
public record LockSnapshot(String ownerToken, long fencingToken, long remainingLeaseMillis, int waiting,
        List<String> waiterTokens, int holds, int permitsInUse, int permits) {

    /** How many waiter tokens an inspection lists at most, so that a long queue never makes it expensive. */
    public static final int MAX_WAITER_TOKENS = 100;

    /** Takes an unmodifiable copy of {@code waiterTokens}; {@code null} stands for none. */
    public LockSnapshot {
        waiterTokens = waiterTokens == null ? List.of() : List.copyOf(waiterTokens);
    }

    /** A snapshot of a lock: one hold if it has an owner, none if not. */
    public LockSnapshot(String ownerToken, long fencingToken, long remainingLeaseMillis, int waiting,
            List<String> waiterTokens) {
        this(ownerToken, fencingToken, remainingLeaseMillis, waiting, waiterTokens, ownerToken != null ? 1 : 0, 0, 0);
    }

    /**
     * A snapshot that lists no waiter tokens, for a store that only counts its waiters (or has none).
     *
     * @param ownerToken the token of the current hold, or {@code null} if nobody holds the lock
     * @param fencingToken the current hold's fencing token, or 0 if free or not known
     * @param remainingLeaseMillis the lease left; 0 if free, {@link LockStore#NEVER_EXPIRES} if it never expires
     * @param waiting how many live entries the lock's queue has
     */
    public LockSnapshot(String ownerToken, long fencingToken, long remainingLeaseMillis, int waiting) {
        this(ownerToken, fencingToken, remainingLeaseMillis, waiting, List.of());
    }
}
