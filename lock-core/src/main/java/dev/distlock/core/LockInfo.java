package dev.distlock.core;

import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * What the backend knows of a lock right now, whoever holds it, read by {@link LockRegistry#inspect}: for an
 * operator looking at a name that seems stuck. It may change the moment it is read; never decide anything on
 * it (acquire the lock instead).
 *
 * @param name the lock's name
 * @param held whether anybody holds it
 * @param holder the registry (process) that holds it, as it announced itself; {@code null} if nobody holds
 *        it, or if the holder is not known (its process went away long enough ago, or it is not a
 *        distlock registry)
 * @param fencingToken the current hold's fencing token; 0 if nobody holds it or it is not known
 * @param heldSince about when the current hold began: its fencing token is the backend's clock in
 *        microseconds when the token was issued (exact unless tokens ran ahead of the clock); {@code null} if
 *        nobody holds it or it is not known
 * @param remainingLease the lease the current hold has left; {@link Duration#ZERO} if nobody holds it,
 *        {@code null} if it never expires
 * @param waiting how many acquisitions (one per process and name) wait for it in the backend's queue
 * @param queue the processes that wait for it in the backend's queue, in the order the lock goes to them (first
 *        come, first served); at most the first {@value dev.distlock.core.spi.LockSnapshot#MAX_WAITER_TOKENS}
 *        ({@code waiting} counts them all). Empty if nobody waits, and with a backend that keeps no queue (Redlock:
 *        its waiters poll) or that may not list it (a Redis user without {@code LRANGE}). Never {@code null}
 * @param holds how many holds the name has now: 1 for a held lock; for a semaphore, each taking of permits, and for a
 *        read-write lock, each reader (or its one writer). {@code holder}, {@code fencingToken}, {@code heldSince}
 *        and {@code remainingLease} then describe the newest of them (the largest fencing token)
 * @param permitsInUse how many permits those holds have together: for a read-write lock, one per reader, or all of
 *        them for its writer; 0 for a lock
 * @param permits how many permits the name has: a semaphore's count, 1,048,576 (2^20) for a read-write lock; 0 for a
 *        lock
 */
public record LockInfo(String name, boolean held, LockHolder holder, long fencingToken, Instant heldSince,
        Duration remainingLease, int waiting, List<LockWaiter> queue, int holds, int permitsInUse, int permits) {

    /** Takes an unmodifiable copy of {@code queue}; {@code null} stands for an empty queue. */
    public LockInfo {
        queue = queue == null ? List.of() : List.copyOf(queue);
    }

    /** What the backend knows of a lock: one hold if it is held, none if not. */
    public LockInfo(String name, boolean held, LockHolder holder, long fencingToken, Instant heldSince,
            Duration remainingLease, int waiting, List<LockWaiter> queue) {
        this(name, held, holder, fencingToken, heldSince, remainingLease, waiting, queue, held ? 1 : 0, 0, 0);
    }

    /**
     * What the backend knows of a lock, without the processes in its queue (only how many there are).
     *
     * @param name the lock's name
     * @param held whether anybody holds it
     * @param holder the registry (process) that holds it, as it announced itself, or {@code null}
     * @param fencingToken the current hold's fencing token; 0 if nobody holds it or it is not known
     * @param heldSince about when the current hold began, or {@code null}
     * @param remainingLease the lease the current hold has left; {@link Duration#ZERO} if nobody holds it,
     *        {@code null} if it never expires
     * @param waiting how many acquisitions wait for it in the backend's queue
     */
    public LockInfo(String name, boolean held, LockHolder holder, long fencingToken, Instant heldSince,
            Duration remainingLease, int waiting) {
        this(name, held, holder, fencingToken, heldSince, remainingLease, waiting, List.of());
    }
}
