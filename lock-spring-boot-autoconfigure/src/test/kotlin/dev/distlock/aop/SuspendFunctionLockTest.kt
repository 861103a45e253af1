package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import dev.distlock.annotation.DistributedLock.TimeoutAction
import dev.distlock.core.LockRegistry
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.context.annotation.Lazy

/**
 * A `suspend fun` under `@DistributedLock` runs its whole body under the lock: Spring hands the interceptor the
 * body as a `Mono`, which is locked like any annotated `Mono` (acquired on subscription, released when it ends).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SuspendFunctionLockTest {

    private val runner = ApplicationContextRunner().withUserConfiguration(LockTestConfiguration::class.java)
        .withBean(LockJournal::class.java).withBean(Reservations::class.java)

    @Test
    fun `concurrent calls on one name run their bodies one at a time, each holding the lock`() {
        runner.run { context ->
            val reservations = context.getBean(Reservations::class.java)
            val journal = context.getBean(LockJournal::class.java)

            val results = runBlocking(Dispatchers.Default) {
                withTimeout(30_000) { (1..4).map { async { reservations.reserve("sku-1") } }.awaitAll() }
            }

            assertThat(results).containsExactlyInAnyOrder(1, 2, 3, 4)
            assertThat(journal.mostInside.get()).`as`("bodies at once").isEqualTo(1)
            assertThat(journal.unlockedEntries.get()).`as`("bodies that started without the lock held").isZero()
            assertThat(context.getBean(LockRegistry::class.java).obtain("sku:sku-1").isLocked).isFalse()
        }
    }

    @Test
    fun `a busy lock fails or skips the call as declared, without running the body`() {
        runner.run { context ->
            val reservations = context.getBean(Reservations::class.java)
            context.getBean(LockRegistry::class.java).holdOnAnotherThread("sku:busy")

            assertThatThrownBy { runBlocking { reservations.reserveOrFail("busy") } }
                .isInstanceOf(LockAcquisitionTimeoutException::class.java)
            assertThat(runBlocking { reservations.reserveIfFree("busy") }).isNull()
            assertThat(context.getBean(LockJournal::class.java).entered.get()).isZero()
        }
    }

    @Test
    fun `a nested suspend call on the same name runs under the outer hold`() {
        runner.run { context ->
            val reservations = context.getBean(Reservations::class.java)

            val fences = runBlocking { withTimeout(30_000) { reservations.outer("sku-2") } }

            assertThat(fences.first).isPositive().isEqualTo(fences.second)
        }
    }

    open class Reservations(private val journal: LockJournal, private val registry: LockRegistry) {

        @Autowired
        @Lazy
        lateinit var self: Reservations

        @DistributedLock(name = "'sku:' + #sku", timeout = "20s")
        open suspend fun reserve(sku: String): Int {
            val entry = journal.entered.incrementAndGet()
            if (!registry.obtain("sku:$sku").isLocked) {
                journal.unlockedEntries.incrementAndGet()
            }
            journal.mostInside.accumulateAndGet(journal.inside.incrementAndGet(), ::maxOf)
            delay(20)
            journal.inside.decrementAndGet()
            return entry
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0")
        open suspend fun reserveOrFail(sku: String): Int {
            journal.entered.incrementAndGet()
            return 1
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0", onTimeout = TimeoutAction.SKIP)
        open suspend fun reserveIfFree(sku: String): Int? {
            journal.entered.incrementAndGet()
            return 1
        }

        @DistributedLock(name = "'sku:' + #sku")
        open suspend fun outer(sku: String): Pair<Long, Long> {
            val outerFence = fence()
            delay(1)
            return outerFence to self.inner(sku)
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0")
        open suspend fun inner(sku: String): Long = fence()

        private suspend fun fence(): Long = ReactiveLockContext.current().awaitSingle().fencingToken()
    }
}
