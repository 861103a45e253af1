package dev.distlock.kotlin

import dev.distlock.core.Lease
import dev.distlock.core.LockLostException
import dev.distlock.core.LockTimeoutException
import dev.distlock.memory.InMemoryLockRegistry
import dev.distlock.memory.InMemoryLockStore
import java.util.Collections
import java.util.concurrent.CountDownLatch
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/** `withLock` on the in-memory registry: exclusion without a thread per waiter, time-outs, cancellation, nesting. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WithLockTest {

    private val store = InMemoryLockStore()
    private val registry = InMemoryLockRegistry.builder().store(store).build()
    /** Another process on the same store: its holds make this registry's callers queue in the store. */
    private val otherProcess = InMemoryLockRegistry.builder().store(store).build()
    private val oneThread = Executors.newSingleThreadExecutor()

    @AfterEach
    fun close() {
        registry.close()
        otherProcess.close()
        oneThread.shutdownNow()
    }

    @Test
    fun `a thousand coroutines on one thread take one name in turn, in the order they asked`() {
        val inside = AtomicInteger()
        val mostInside = AtomicInteger()
        val order = Collections.synchronizedList(mutableListOf<Int>())
        var counter = 0 // not thread-safe on purpose: the lock is what keeps it exact

        runBlocking(oneThread.asCoroutineDispatcher()) {
            withTimeout(30.seconds) {
                (1..1000).map { call ->
                    async {
                        registry.withLock("counter", Duration.INFINITE) {
                            mostInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
                            order += call
                            val seen = counter
                            yield() // one thread only: a blocked waiter would stop everybody here
                            counter = seen + 1
                            inside.decrementAndGet()
                        }
                    }
                }.awaitAll()
            }
        }

        assertThat(counter).isEqualTo(1000)
        assertThat(mostInside.get()).`as`("bodies at once").isEqualTo(1)
        assertThat(order).`as`("the order the calls asked in").isEqualTo((1..1000).toList())
        assertThat(registry.obtain("counter").isLocked).isFalse()
    }

    @Test
    fun `a busy lock ends the wait with LockTimeoutException and the block does not run`() {
        holdElsewhere("busy")
        val ran = AtomicInteger()

        assertThatThrownBy { runBlocking { registry.withLock("busy", 100.milliseconds) { ran.incrementAndGet() } } }
            .isInstanceOf(LockTimeoutException::class.java)
            .hasMessageContaining("'busy'")
        assertThat(ran.get()).isZero()
        assertThat(store.waitersQueued("busy")).`as`("queue entries left").isZero()
    }

    @Test
    fun `a cancelled waiter leaves the queue and the next one gets the lock when the holder lets go`() {
        val release = holdElsewhere("queue")

        runBlocking {
            val cancelled = launch { registry.withLock("queue", Duration.INFINITE) { error("must not run") } }
            awaitQueued("queue", 1)
            cancelled.cancel()
            cancelled.join()
            awaitQueued("queue", 0) // the engine withdraws it in the background, at once

            val next = async { registry.withLock("queue", 10.seconds) { it.fencingToken() } }
            awaitQueued("queue", 1)
            release.countDown()
            assertThat(next.await()).isPositive()
        }
        assertThat(registry.obtain("queue").isLocked).isFalse()
    }

    @Test
    fun `a failing block releases the lock and its failure reaches the caller`() {
        assertThatThrownBy {
            runBlocking { registry.withLock("failing", 1.seconds) { throw IllegalArgumentException("bad input") } }
        }.isInstanceOf(IllegalArgumentException::class.java).hasMessage("bad input")

        assertThat(registry.obtain("failing").isLocked).isFalse()
    }

    @Test
    fun `a lock lost during the block is reported when the block ends, with the block's result dropped`() {
        assertThatThrownBy {
            runBlocking {
                registry.withLock("lost", 1.seconds, Lease.fixed(java.time.Duration.ofSeconds(30))) {
                    store.delete("lost") // someone else's doing: the store no longer holds it for this hold
                    "done"
                }
            }
        }.isInstanceOf(LockLostException::class.java).hasMessageContaining("'lost'")
    }

    @Test
    fun `a nested withLock on the same name re-enters the hold and another name is taken as well`() {
        val tokens = runBlocking {
            registry.withLock("outer", 1.seconds) { outer ->
                val inner = registry.withLock("outer", Duration.ZERO) { it.fencingToken() }
                val other = registry.withLock("other", Duration.ZERO) { it.fencingToken() }
                listOf(outer.fencingToken(), inner, other)
            }
        }

        assertThat(tokens[1]).`as`("the nested call's token").isEqualTo(tokens[0])
        assertThat(tokens[2]).isPositive()
        assertThat(registry.obtain("outer").isLocked).isFalse()
        assertThat(registry.obtain("other").isLocked).isFalse()
    }

    @Test
    fun `a nested withLock on the same name of another registry takes that registry's lock`() {
        val separateStore = InMemoryLockRegistry.builder().build()
        try {
            val lockedInside = runBlocking {
                registry.withLock("shared-name", 1.seconds) {
                    separateStore.withLock("shared-name", Duration.ZERO) {
                        separateStore.obtain("shared-name").isLocked
                    }
                }
            }

            assertThat(lockedInside).`as`("the other registry's lock held inside").isTrue()
            assertThat(separateStore.obtain("shared-name").isLocked).isFalse()
        } finally {
            separateStore.close()
        }
    }

    @Test
    fun `child coroutines of the block finish before the lock is released`() {
        val childDone = CompletableDeferred<Boolean>()
        val lockedWhenChildEnded = runBlocking {
            registry.withLock("children", 1.seconds) {
                launch {
                    delay(200)
                    childDone.complete(registry.obtain("children").isLocked)
                }
            }
            childDone.await()
        }

        assertThat(lockedWhenChildEnded).`as`("locked when the child ended").isTrue()
        assertThat(registry.obtain("children").isLocked).isFalse()
    }

    @Test
    fun `a negative wait is refused naming the lock`() {
        assertThatThrownBy { runBlocking { registry.withLock("negative", (-1).seconds) { } } }
            .isInstanceOf(IllegalArgumentException::class.java)
            .hasMessageContaining("'negative'")
    }

    /** Holds [name] in another process (on a thread of its own) until the returned latch is counted down. */
    private fun holdElsewhere(name: String): CountDownLatch {
        val held = CountDownLatch(1)
        val release = CountDownLatch(1)
        Thread {
            val lock = otherProcess.obtain(name)
            lock.lock()
            held.countDown()
            release.await(30, TimeUnit.SECONDS)
            lock.unlock()
        }.start()
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue()
        return release
    }

    private suspend fun awaitQueued(name: String, waiters: Int) {
        withTimeout(10.seconds) {
            while (store.waitersQueued(name) != waiters) {
                delay(5)
            }
        }
    }
}
