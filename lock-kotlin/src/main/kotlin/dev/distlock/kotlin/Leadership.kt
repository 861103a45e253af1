@file:JvmName("CoroutineLeadership")

package dev.distlock.kotlin

import dev.distlock.core.LockLostException
import dev.distlock.core.LockRegistry
import dev.distlock.election.LeaderElection
import dev.distlock.election.LeaderListener
import dev.distlock.election.LeaderTerm
import java.util.concurrent.atomic.AtomicReference
import kotlin.time.Duration
import kotlin.time.Duration.Companion.seconds
import kotlin.time.toJavaDuration
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Job
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.future.await
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeoutOrNull

/**
 * Stands for the election [name] (a [LeaderElection] on this registry) while the calling coroutine runs, and runs
 * [block] during each term this candidate wins, in a child coroutine given the term: its epoch is the fencing token
 * to hand to whatever the leader changes.
 *
 * The block is cancelled when its term is revoked, and the revocation waits for it to finish (at most [stopBound]):
 * a leader whose renewals fail is revoked at its hold's local deadline, which passes before the lease can run out,
 * so a block that stops on cancellation has stopped before any other candidate is granted. A block that ignores
 * cancellation may outlive its term; fencing its writes with the epoch is what then keeps it harmless. After a
 * revocation the candidate stands again.
 *
 * Cancelling the caller ends the candidacy: a leader's block is cancelled and joined, then the election's lock is
 * released, so the next candidate is granted at once. The function never returns normally.
 *
 * @param lease the lease of the election's lock (renewed while leading); `null` for the registry's default
 * @param stopBound how long a revocation waits for the block to finish
 */
suspend fun LockRegistry.lead(
    name: String,
    lease: Duration? = null,
    stopBound: Duration = 10.seconds,
    block: suspend CoroutineScope.(LeaderTerm) -> Unit,
): Nothing = coroutineScope {
    val running = AtomicReference<Job?>()
    val scope = this
    val terms = object : LeaderListener {
        override fun granted(term: LeaderTerm) {
            running.set(scope.launch { block(term) })
        }

        override fun revoked(term: LeaderTerm, loss: LockLostException?) {
            val job = running.getAndSet(null) ?: return
            job.cancel()
            runBlocking { withTimeoutOrNull(stopBound) { job.join() } } // on the election's own thread
        }
    }
    val election = LeaderElection.builder(this@lead, name)
        .apply { if (lease != null) lease(lease.toJavaDuration()) }
        .listener(terms)
        .build()
    election.start()
    try {
        awaitCancellation()
    } finally {
        withContext(NonCancellable) { election.stopAsync().await() }
    }
}
