package dev.distlock.kotlin

import dev.distlock.core.LockTimeoutException
import dev.distlock.memory.InMemoryLockRegistry
import dev.distlock.memory.InMemoryLockStore
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration
import kotlin.time.Duration.Companion.milliseconds
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.AfterEach
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/** `withPermits` on the in-memory registry: a limit across coroutines, time-outs, permits given back on failure. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WithPermitsTest {

    private val store = InMemoryLockStore()
    private val registry = InMemoryLockRegistry.builder().store(store).build()

    @AfterEach
    fun close() {
        registry.close()
    }

    @Test
    fun atMostThePermitsRunAtOnceAndEveryOneRuns(): Unit = runBlocking<Unit> {
        val supplier = registry.semaphore("supplier", 3)
        val inside = AtomicInteger()
        val most = AtomicInteger()

        val tokens = (1..12).map {
            async {
                supplier.withPermits(Duration.INFINITE) { permit ->
                    most.accumulateAndGet(inside.incrementAndGet(), Math::max)
                    delay(20.milliseconds)
                    inside.decrementAndGet()
                    permit.fencingToken()
                }
            }
        }.awaitAll()

        assertThat(tokens).hasSize(12).doesNotHaveDuplicates()
        assertThat(most.get()).isEqualTo(3)
        assertThat(store.permitsInUse("supplier")).isZero()
    }

    @Test
    fun aTakingThatFindsNoPermitInTimeFailsWithoutRunningAndSeveralAreAllOrNothing(): Unit = runBlocking<Unit> {
        val supplier = registry.semaphore("supplier", 2)
        supplier.withPermits(Duration.ZERO) {
            assertThatThrownBy { runBlocking { supplier.withPermits(Duration.ZERO, count = 2) { error("ran") } } }
                .isInstanceOf(LockTimeoutException::class.java).hasMessageContaining("supplier")
            assertThat(supplier.withPermits(Duration.ZERO) { "the other one" }).isEqualTo("the other one")
        }
        assertThat(supplier.withPermits(1.seconds, count = 2) { store.permitsInUse("supplier") }).isEqualTo(2)
    }

    @Test
    fun permitsAreGivenBackWhenTheBlockFailsOrTheWaiterIsCancelled(): Unit = runBlocking<Unit> {
        val supplier = registry.semaphore("supplier", 1)
        assertThatThrownBy { runBlocking { supplier.withPermits(Duration.ZERO) { error("the work failed") } } }
            .hasMessage("the work failed")
        assertThat(store.permitsInUse("supplier")).isZero()

        supplier.withPermits(Duration.ZERO) {
            val waiting = launch { supplier.withPermits(Duration.INFINITE) { error("must not run") } }
            withTimeout(10.seconds) {
                while (store.waitersQueued("supplier") == 0) {
                    delay(5.milliseconds)
                }
            }
            waiting.cancel()
            waiting.join()
        }
        // the release may hand the permit to the cancelled waiter's place before it left the queue: given back then
        withTimeout(10.seconds) {
            while (store.permitsInUse("supplier") != 0) {
                delay(5.milliseconds)
            }
        }
        assertThat(supplier.withPermits(Duration.ZERO) { "free" }).isEqualTo("free")
    }
}
