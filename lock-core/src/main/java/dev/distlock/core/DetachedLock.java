package dev.distlock.core;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletionStage;

/**
 * A hold that no thread owns: the result of {@link FencedLock#detach()}, or of an acquisition that blocked no
 * thread ({@link FencedLock#tryLockAsync}, {@link FencedLock#lockAsync}). Whoever has it may release it, from any
 * thread, exactly once; the watchdog renews a renewed lease until then. Typical use is asynchronous work:
 *
 * <pre>{@code
 * lock.lock();
 * DetachedLock hold = lock.detach();
 * CompletableFuture.runAsync(work).whenComplete((result, error) -> hold.unlock());
 *
 * lock.tryLockAsync(Duration.ofSeconds(5))
 *         .thenCompose(held -> held == null ? skip() : work(held.fencingToken())
 *                 .whenComplete((result, error) -> held.unlockAsync()));
 * }</pre>
 *
 * <p>The {@code ...Async} methods never block the caller: each completes its stage when the backend answered,
 * with the same outcome (or exception, as it is, not wrapped) as its blocking counterpart; invalid arguments are
 * thrown at once. On a store with an asynchronous client (Redis through Lettuce with a shared connection, Spring
 * Boot's default) no thread waits for the answer; on a blocking one (Jedis, a pooled Lettuce factory) the command
 * runs on one of the registry's call threads (16 at most), and a write that replicas must acknowledge waits on
 * one of the store's own threads (8 at most). Stages complete on one of the registry's step threads (8 at most),
 * never on the client's own I/O threads: work chained with {@code thenRun} and the like runs there, and work that
 * blocks belongs on an executor of its own ({@code thenRunAsync(work, executor)}). A stage returned already
 * complete (a hold released or lost already) runs chained work on the calling thread.
 */
public interface DetachedLock {

    /** The lock's name. */
    String name();

    /**
     * The fencing token of this hold.
     *
     * @throws IllegalStateException for a hold of several names ({@link LockRegistry#obtainAll}), which has a token
     *         per name: see {@link #fencingTokens()}
     */
    long fencingToken();

    /** The fencing token of each name of this hold: one entry, or one per name of a lock on several names. */
    default Map<String, Long> fencingTokens() {
        return Map.of(name(), fencingToken());
    }

    /**
     * How the wait of the acquire that made this hold ended; {@code null} where it is not known, e.g. for a hold of
     * several names.
     *
     * @since 0.1.0
     */
    default WaitEnd waitEnd() {
        return null;
    }

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
     * @throws IllegalArgumentException if {@code lease} is outside the bounds of {@link FencedLock#extend}
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockLostException if the hold had expired or was taken over
     * @throws LockBackendException if the backend failed: the hold is then trusted only for the shorter of its
     *         old lease and {@code lease}
     */
    void extend(Duration lease);

    /** {@link #unlock()} without blocking the caller. */
    CompletionStage<Void> unlockAsync();

    /** {@link #unlockAfter(Duration)} without blocking the caller. */
    CompletionStage<Void> unlockAfterAsync(Duration delay);

    /** {@link #extend(Duration)} without blocking the caller. */
    CompletionStage<Void> extendAsync(Duration lease);

    /** {@link #remainingLease()} without blocking the caller. */
    CompletionStage<Duration> remainingLeaseAsync();

    /**
     * The time left before this hold expires unless renewed, as {@link FencedLock#remainingLease()} tells it;
     * {@link Duration#ZERO} if the hold is lost.
     *
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockBackendException if the backend could not be asked
     */
    Duration remainingLease();

    /**
     * Asks the backend whether this hold is still this owner's, as {@link FencedLock#verifyHeld()} does.
     *
     * @throws IllegalMonitorStateException if it was released already
     * @throws LockLostException saying why, if the hold is lost
     * @throws LockBackendException if the backend could not be asked
     */
    void verifyHeld();

    /**
     * {@link #verifyHeld()} without blocking the caller: the stage fails with the exception it would throw.
     *
     * @since 0.1.0
     */
    CompletionStage<Void> verifyHeldAsync();

    /**
     * Completes when this hold ends: with {@code null} once its owner releases it ({@link #unlock()} and the like,
     * whatever the backend then answers), or with the {@link LockLostException} saying why once the hold is found
     * lost while held: its local deadline passed without a confirmed renewal (which is before the backend can let
     * its lease run out, by the clock drift the registry allows for), a renewal, extension or lease read found it
     * gone, or its registry was closed. Work that must stop when the lock is no longer this owner's (a leader's
     * duties, a long task) hangs on it.
     *
     * <p>Chained work runs on the registry's thread that found the end (or on the calling thread, if it ended
     * already): it must not block; hand blocking work to an executor of its own.
     *
     * @since 0.1.0
     */
    CompletionStage<LockLostException> whenEnded();
}
