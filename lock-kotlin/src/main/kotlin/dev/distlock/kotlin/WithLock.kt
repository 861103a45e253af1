@file:JvmName("CoroutineLocks")

package dev.distlock.kotlin

import dev.distlock.core.DetachedLock
import dev.distlock.core.FencedLock
import dev.distlock.core.LeasedSemaphore
import dev.distlock.core.Lease
import dev.distlock.core.LockLostException
import dev.distlock.core.LockRegistry
import dev.distlock.core.LockTimeoutException
import java.util.concurrent.CompletableFuture
import java.util.concurrent.CompletionException
import kotlin.coroutines.cancellation.CancellationException
import kotlin.time.Duration
import kotlin.time.toJavaDuration
import kotlin.time.toKotlinDuration
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.future.await
import kotlinx.coroutines.withContext

/**
 * Runs [block] holding this lock, and releases it when the block ends, fails or is cancelled.
 *
 * The lock is awaited without blocking a thread (the engine's non-blocking acquisition: thousands of coroutines
 * waiting on one name cost no thread), in arrival order with the registry's other callers. The hold belongs to the
 * coroutine, not to a thread, so the block may suspend and resume anywhere; child coroutines the block launches
 * finish before the lock is released. Cancelling the caller while it waits withdraws it from the queue; a hold
 * granted just as it was cancelled is released.
 *
 * Re-entrant within the coroutine: a `withLock` on a lock the coroutine (or a parent) already holds through
 * `withLock` (the same registry and name; for several names, the same set) runs at once under that hold, failing
 * with [LockLostException] if the hold was lost meanwhile. A lock of another registry, or a set of names that only
 * overlaps a held one, is taken anew: nested in a hold of a set of names, a `withLock` on one of those names alone
 * waits for that very hold, so it fails with [LockTimeoutException] when its wait runs out (and never returns
 * with [Duration.INFINITE]).
 *
 * @param wait how long to wait for the lock; [Duration.INFINITE] for no limit, [Duration.ZERO] for one try
 * @param block the work, given the hold (its fencing token, [DetachedLock.extend], [DetachedLock.isHeld])
 * @throws IllegalArgumentException if [wait] is negative
 * @throws LockTimeoutException if the lock was not acquired within [wait]; the block did not run
 * @throws dev.distlock.core.LockBackendException if the backend failed: permanently, or transiently through the
 *   whole wait (the block did not run), or in the release after the block ran
 * @throws LockLostException if the block ran but the lock was lost before it was released (after the block's own
 *   failure, as a suppressed exception of it)
 */
suspend fun <T> FencedLock.withLock(wait: Duration, block: suspend CoroutineScope.(DetachedLock) -> T): T {
    require(!wait.isNegative()) { "Lock '${name()}': the wait must not be negative, was $wait" }
    val outer = currentCoroutineContext()[HeldLocks]
    outer?.holdOf(this)?.let { held ->
        if (!held.isHeld) {
            throw LockLostException(name(), "it was lost before this nested withLock re-entered it")
        }
        return withContext(outer) { block(held) }
    }
    val hold = acquire(wait) ?: throw LockTimeoutException(name(), wait.toJavaDuration())
    return runHolding(hold) { withContext(HeldLocks(outer, this, hold)) { block(hold) } }
}

/** [withLock] with a `java.time.Duration` wait. */
suspend fun <T> FencedLock.withLock(wait: java.time.Duration, block: suspend CoroutineScope.(DetachedLock) -> T): T =
    withLock(wait.toKotlinDuration(), block)

/**
 * Runs [block] holding the lock on [name] with [lease] (renewed by the registry's watchdog by default): the
 * registry's lock, through [FencedLock.withLock].
 *
 * @throws dev.distlock.core.InvalidLockNameException if the name is empty, too long or not valid UTF-16
 */
suspend fun <T> LockRegistry.withLock(
    name: String,
    wait: Duration,
    lease: Lease = Lease.renewed(),
    block: suspend CoroutineScope.(DetachedLock) -> T,
): T = obtain(name, lease).withLock(wait, block)

/** [withLock] with a `java.time.Duration` wait. */
suspend fun <T> LockRegistry.withLock(
    name: String,
    wait: java.time.Duration,
    lease: Lease = Lease.renewed(),
    block: suspend CoroutineScope.(DetachedLock) -> T,
): T = obtain(name, lease).withLock(wait.toKotlinDuration(), block)

/**
 * Runs [block] holding [count] permits of this semaphore (all or none), and gives them back when the block ends,
 * fails or is cancelled: [withLock] for a semaphore. The permits are awaited without blocking a thread, in arrival
 * order with every other taking of the semaphore; cancelling the caller while it waits withdraws it, and permits
 * granted just as it was cancelled are given back. Not re-entrant: a nested `withPermits` takes permits of its own.
 *
 * @param wait how long to wait for the permits; [Duration.INFINITE] for no limit, [Duration.ZERO] for one try
 * @param block the work, given the hold of its permits (its fencing token, [DetachedLock.extend], [DetachedLock.isHeld])
 * @throws IllegalArgumentException if [wait] is negative, or [count] is not between 1 and the semaphore's permits
 * @throws LockTimeoutException if the permits were not free within [wait]; the block did not run
 */
suspend fun <T> LeasedSemaphore.withPermits(
    wait: Duration,
    count: Int = 1,
    block: suspend CoroutineScope.(DetachedLock) -> T,
): T {
    require(!wait.isNegative()) { "Semaphore '${name()}': the wait must not be negative, was $wait" }
    val javaWait = if (wait.isInfinite()) java.time.Duration.ofNanos(Long.MAX_VALUE) else wait.toJavaDuration()
    val hold = awaitHold { tryAcquireAsync(count, javaWait).toCompletableFuture() }
        ?: throw LockTimeoutException(name(), javaWait)
    return runHolding(hold) { coroutineScope { block(hold) } }
}

/** [withPermits] with a `java.time.Duration` wait. */
suspend fun <T> LeasedSemaphore.withPermits(
    wait: java.time.Duration,
    count: Int = 1,
    block: suspend CoroutineScope.(DetachedLock) -> T,
): T = withPermits(wait.toKotlinDuration(), count, block)

/** The hold, or `null` once [wait] ran out; a hold that comes as the caller is cancelled is released. */
private suspend fun FencedLock.acquire(wait: Duration): DetachedLock? =
    awaitHold { (if (wait.isInfinite()) lockAsync() else tryLockAsync(wait.toJavaDuration())).toCompletableFuture() }

/**
 * The hold [pending] gives, or `null` once its wait ran out; a cancellation of the caller cancels it (the engine
 * withdraws the waiter), and a hold that comes as the caller is cancelled is released.
 */
private suspend fun awaitHold(pending: () -> CompletableFuture<DetachedLock?>): DetachedLock? {
    val future = pending()
    try {
        return future.await()
    } catch (cancelled: CancellationException) {
        // the future could not be cancelled if it had completed: that hold is nobody's now
        if (future.isDone && !future.isCompletedExceptionally) {
            future.getNow(null)?.unlockAsync()
        }
        throw cancelled
    }
}

/** Runs [block] with [hold], then releases it: also when the block fails (the release's failure suppressed). */
private suspend fun <T> runHolding(hold: DetachedLock, block: suspend () -> T): T {
    val result = try {
        block()
    } catch (failure: Throwable) {
        release(hold, failure)
        throw failure
    }
    release(hold, null)
    return result
}

/** Releases [hold] without being cancelled; a failure is thrown, or added to the block's own [failure]. */
private suspend fun release(hold: DetachedLock, failure: Throwable?) {
    try {
        withContext(NonCancellable) { hold.unlockAsync().await() }
    } catch (releaseFailure: Throwable) {
        val cause = (releaseFailure as? CompletionException)?.cause ?: releaseFailure
        if (failure == null) {
            throw cause
        }
        failure.addSuppressed(cause)
    }
}
