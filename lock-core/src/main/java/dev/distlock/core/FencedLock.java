package dev.distlock.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

/**
 * A distributed lock obtained by name from a {@link LockRegistry}.
 *
 * <p>It behaves like a {@link java.util.concurrent.locks.ReentrantLock} shared by every process that uses
 * the same backend: a hold belongs to the thread that acquired it, the same thread may acquire it again
 * (only the last {@link #unlock()} releases it in the backend), and another thread's {@code unlock()} is an
 * {@link IllegalMonitorStateException}. Every new hold (not a re-entry) gets a {@linkplain #fencingToken() fencing
 * token} larger than the earlier ones for the same name, as long as the backend keeps the last token or its clock
 * is not set back below it (see the registry's {@code fenceRetention}).
 *
 * <p>Every acquiring method also throws {@link IllegalStateException} if the registry is closed, or closes while
 * the call waits, and {@link LockLostException} if the current thread already holds this lock and that hold was
 * found lost (re-entry is refused; call {@link #unlock()}).
 *
 * <p>A hold can be <em>lost</em>: its lease expired, or someone deleted or overwrote the key. The holder
 * learns of it from the watchdog (listeners are told at once, {@link #isHeldByCurrentThread()} turns false)
 * and at the latest from {@link #unlock()}, which then throws {@link LockLostException} and leaves the new
 * owner's key alone.
 *
 * <p>To release a hold from another thread (asynchronous code), the acquiring thread calls
 * {@link #detach()} and hands the returned {@link DetachedLock} over. Callers that must not block a thread
 * acquire with {@link #tryLockAsync(Duration)} or {@link #lockAsync()}, which complete with such a hold.
 *
 * <p>Handles are cheap views: two handles of one registry for the same name are {@link Object#equals equal}
 * whatever lease or label they were obtained with, since they lock the same thing.
 */
public interface FencedLock extends Lock {

    /** The name this lock was obtained by. */
    String name();

    /**
     * Acquires the lock, waiting at most {@code wait}.
     *
     * @param wait how long to wait; {@link Duration#ZERO} (or negative) means exactly one try
     * @return whether the current thread now holds the lock; {@code false} also when only transient backend
     *         errors (a refused connection, a failover) met the tries after one of them had found the lock held
     * @throws InterruptedException if the thread is interrupted on entry or while waiting; no new hold is taken
     *         (holds the thread already had are kept)
     * @throws LockBackendException if the backend failed permanently, or transiently through the whole wait with
     *         no try finding the lock held; bounded by the wait plus one command timeout
     */
    boolean tryLock(Duration wait) throws InterruptedException;

    /** Same as {@link #tryLock(Duration)}. */
    @Override
    default boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
        return tryLock(Duration.ofNanos(unit.toNanos(time)));
    }

    /** One try, no waiting. */
    @Override
    default boolean tryLock() {
        try {
            return tryLock(Duration.ZERO);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits as long as it takes to acquire the lock. An interrupt does not stop the wait; the thread's
     * interrupt flag is set again when this returns. Transient backend errors are retried.
     *
     * @throws LockBackendException if the backend failed permanently (a refused command, a wrong key type)
     */
    @Override
    void lock();

    /**
     * Waits as long as it takes to acquire the lock, unless interrupted. Transient backend errors are retried.
     *
     * @throws LockBackendException if the backend failed permanently (a refused command, a wrong key type)
     */
    @Override
    void lockInterruptibly() throws InterruptedException;

    /**
     * Releases one hold of the current thread; the last one releases the lock in the backend and stops
     * its renewal.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockLostException if the hold had expired or was taken over; the other owner's key is untouched
     * @throws LockBackendException if the backend failed; the key then expires with its lease
     */
    @Override
    void unlock();

    /**
     * Releases one hold of the current thread like {@link #unlock()}, but the last one leaves the lock taken
     * in the backend for {@code delay} more instead of freeing it: the lease is set to {@code delay},
     * renewal stops, and the lock frees itself when the lease runs out. The current thread no longer holds
     * it. This is how a job scheduled on several instances runs at most once per period (ShedLock's
     * {@code lockAtLeastFor}); a {@code delay} of zero or less is a plain {@link #unlock()}.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockLostException if the hold had expired or was taken over; the other owner's key is untouched
     * @throws LockBackendException if the backend failed; the key then expires with its lease
     */
    void unlockAfter(Duration delay);

    /** Whether any process holds this lock now (asks the backend). */
    boolean isLocked();

    /** Whether the current thread holds this lock and no loss has been detected. */
    boolean isHeldByCurrentThread();

    /** How many times the current thread holds this lock (0 if it does not). */
    int holdCount();

    /**
     * The fencing token of the current thread's hold: larger than the tokens of earlier holds of this name (see
     * the class comment for what that rests on). Pass it to the resource the lock protects, which rejects writes
     * carrying a token older than one it saw.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     */
    long fencingToken();

    /**
     * The fencing token of each name the current thread holds through this lock: one entry for a lock on one name,
     * one per name, in their canonical (sorted) order, for a lock on several ({@link LockRegistry#obtainAll}).
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     */
    default Map<String, Long> fencingTokens() {
        return Map.of(name(), fencingToken());
    }

    /**
     * How the wait of the acquire that made the current thread's hold ended (a re-entrant acquire does not wait: it
     * keeps the first one's); {@code null} where it is not known, e.g. for a lock on several names.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @since 0.1.0
     */
    default WaitEnd waitEnd() {
        fencingTokens(); // the same check as the other accessors of the hold
        return null;
    }

    /**
     * Sets the remaining lease of the current thread's hold to {@code lease}; a renewed hold is renewed to
     * this length from now on.
     *
     * @throws IllegalArgumentException if {@code lease} is outside {@link Lease#MIN} ({@link Lease#MIN_RENEWED} for a
     *         renewed hold) to {@link Lease#MAX}
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockLostException if the hold had expired or was taken over
     * @throws LockBackendException if the backend failed (or too few replicas acknowledged): the extend may have
     *         run, so the hold is trusted only for the shorter of its old lease and {@code lease}
     */
    void extend(Duration lease);

    /**
     * The time left before the current thread's hold expires unless renewed: what the backend reports, but
     * never more than this JVM can be sure of (the time its last acquire or renewal was sent plus the lease,
     * less the drift margin); {@link Duration#ZERO} if the hold is lost.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockBackendException if the backend could not be asked
     */
    Duration remainingLease();

    /**
     * Asks the backend whether the current thread's hold is still this owner's, right before work that must not
     * happen without the lock (a commit, say): returns if it is; if not, the hold counts as lost from now on. One
     * round trip, none when the hold is known lost already. It cannot vouch for the time after it answered: fencing
     * tokens can.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     * @throws LockLostException saying why, if the hold is lost
     * @throws LockBackendException if the backend could not be asked
     */
    void verifyHeld();

    /**
     * Hands the current thread's hold (all its re-entrant counts) to whoever receives the returned object,
     * which may release it from any thread. From now on no thread holds the lock re-entrantly; the
     * watchdog keeps renewing it until {@link DetachedLock#unlock()}.
     *
     * @throws IllegalMonitorStateException if the current thread does not hold the lock
     */
    DetachedLock detach();

    /**
     * Acquires the lock without blocking any thread, waiting at most {@code wait}: for asynchronous, reactive and
     * coroutine callers. The call waits in the same queues as blocking callers, in arrival order, but as a pending
     * future: a hand-off notice, the poll timer or the deadline moves it on, and a thread is used only while one
     * of its backend commands runs (on the registry's small pool of background threads, never the caller's).
     *
     * <p>The hold belongs to no thread and is not re-entrant: it is the returned {@link DetachedLock}, which whoever
     * has it releases ({@link DetachedLock#unlockAsync()}). Cancelling the returned stage's
     * {@link CompletionStage#toCompletableFuture() future} withdraws the call like an interrupt: it leaves the
     * queue, and a hold made meanwhile is released.
     *
     * @param wait how long to wait; {@link Duration#ZERO} (or negative) means exactly one try
     * @return a stage completed with the hold, or with {@code null} if the wait ran out; completed exceptionally
     *         with {@link LockBackendException} if the backend failed (within the wait plus one command timeout),
     *         or {@link IllegalStateException} if the registry is or was closed meanwhile
     */
    CompletionStage<DetachedLock> tryLockAsync(Duration wait);

    /**
     * Acquires the lock without blocking any thread, waiting as long as it takes: {@link #tryLockAsync(Duration)}
     * without a limit, so the stage never completes with {@code null}.
     */
    CompletionStage<DetachedLock> lockAsync();

    /** Conditions are not supported by distributed locks. */
    @Override
    default Condition newCondition() {
        throw new UnsupportedOperationException(
                "Lock '" + name() + "': distributed locks do not support conditions; use a queue or pub/sub instead");
    }
}
