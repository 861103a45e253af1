package dev.distlock.kotlin

import dev.distlock.memory.InMemoryLockRegistry
import dev.distlock.memory.InMemoryLockStore
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/**
 * `lead` on two registries ("processes") of one in-memory store: one block at a time, each term's epoch larger than
 * the last; cancelling the leader's caller cancels its block and finishes it before the other candidate's starts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LeadershipTest {

    private val store = InMemoryLockStore()
    private val first = InMemoryLockRegistry.builder().store(store).build()
    private val second = InMemoryLockRegistry.builder().store(store).build()

    @AfterEach
    fun close() {
        first.close()
        second.close()
    }

    @Test
    fun oneBlockRunsAtATimeAndTheNextStartsOnlyAfterTheLeadersBlockEnded(): Unit = runBlocking<Unit> {
        val journal = CopyOnWriteArrayList<String>()
        val inside = AtomicInteger()
        val firstLeads = CompletableDeferred<Long>()
        val secondLeads = CompletableDeferred<Long>()

        val leader = launch(Dispatchers.Default) {
            first.lead("audit") { term ->
                inside.incrementAndGet()
                journal.add("first granted")
                firstLeads.complete(term.epoch())
                try {
                    awaitCancellation()
                } finally {
                    journal.add("first ended")
                    inside.decrementAndGet()
                }
            }
        }
        val firstEpoch = withTimeout(10_000) { firstLeads.await() }
        val follower = launch(Dispatchers.Default) {
            second.lead("audit") { term ->
                journal.add("second granted, ${inside.incrementAndGet()} inside")
                secondLeads.complete(term.epoch())
                awaitCancellation()
            }
        }
        assertThat(secondLeads.isCompleted).isFalse()

        leader.cancelAndJoin()
        val secondEpoch = withTimeout(10_000) { secondLeads.await() }
        follower.cancelAndJoin()

        assertThat(journal).containsExactly("first granted", "first ended", "second granted, 1 inside")
        assertThat(secondEpoch).isGreaterThan(firstEpoch)
        assertThat(store.isLocked("audit")).isFalse()
    }
}
