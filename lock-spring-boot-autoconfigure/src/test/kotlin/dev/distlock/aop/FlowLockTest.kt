package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import dev.distlock.annotation.DistributedLock.TimeoutAction
import dev.distlock.core.LockRegistry
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.emitAll
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.toList
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
 * A function returning a Kotlin `Flow` under `@DistributedLock` is locked for each collection: acquired when
 * collecting starts, held while the flow emits, released when it ends or its collector stops.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FlowLockTest {

    private val runner = ApplicationContextRunner().withUserConfiguration(LockTestConfiguration::class.java)
        .withBean(LockJournal::class.java).withBean(Stock::class.java)

    @Test
    fun `concurrent collections on one name run one at a time, each holding the lock while it emits`() {
        runner.run { context ->
            val stock = context.getBean(Stock::class.java)
            val journal = context.getBean(LockJournal::class.java)

            val collected = runBlocking(Dispatchers.Default) {
                withTimeout(30_000) { (1..4).map { async { stock.movements("sku-1").toList() } }.awaitAll() }
            }

            assertThat(collected).hasSize(4).allSatisfy { assertThat(it).hasSize(3) }
            assertThat(journal.entered.get()).isEqualTo(4)
            assertThat(journal.mostInside.get()).`as`("flows emitting at once").isEqualTo(1)
            assertThat(journal.unlockedEntries.get()).`as`("items emitted without the lock held").isZero()
            assertThat(context.getBean(LockRegistry::class.java).obtain("sku:sku-1").isLocked).isFalse()
        }
    }

    @Test
    fun `a collector that stops early releases the lock, and the next collection runs`() {
        runner.run { context ->
            val stock = context.getBean(Stock::class.java)

            val first = runBlocking { withTimeout(30_000) { stock.movements("sku-2").first() } }
            val all = runBlocking { withTimeout(30_000) { stock.movements("sku-2").toList() } }

            assertThat(first).isEqualTo(1)
            assertThat(all).containsExactly(1, 2, 3)
            assertThat(context.getBean(LockRegistry::class.java).obtain("sku:sku-2").isLocked).isFalse()
        }
    }

    @Test
    fun `a busy lock fails or skips the collection as declared, without running the function's flow`() {
        runner.run { context ->
            val stock = context.getBean(Stock::class.java)
            context.getBean(LockRegistry::class.java).holdOnAnotherThread("sku:busy")

            assertThatThrownBy { runBlocking { stock.movementsOrFail("busy").toList() } }
                .isInstanceOf(LockAcquisitionTimeoutException::class.java)
            assertThat(runBlocking { stock.movementsIfFree("busy").toList() }).isEmpty()
            assertThat(context.getBean(LockJournal::class.java).entered.get()).isZero()
        }
    }

    @Test
    fun `a nested annotated flow on the same name runs under the outer hold`() {
        runner.run { context ->
            val stock = context.getBean(Stock::class.java)

            val fences = runBlocking { withTimeout(30_000) { stock.outer("sku-3").toList() } }

            assertThat(fences).hasSize(2)
            assertThat(fences[0]).isPositive().isEqualTo(fences[1])
        }
    }

    open class Stock(private val journal: LockJournal, private val registry: LockRegistry) {

        @Autowired
        @Lazy
        lateinit var self: Stock

        @DistributedLock(name = "'sku:' + #sku", timeout = "20s")
        open fun movements(sku: String): Flow<Int> = flow {
            journal.entered.incrementAndGet()
            journal.mostInside.accumulateAndGet(journal.inside.incrementAndGet(), ::maxOf)
            try {
                for (item in 1..3) {
                    if (!registry.obtain("sku:$sku").isLocked) {
                        journal.unlockedEntries.incrementAndGet()
                    }
                    emit(item)
                    delay(10)
                }
            } finally {
                journal.inside.decrementAndGet()
            }
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0")
        open fun movementsOrFail(sku: String): Flow<Int> = flow {
            journal.entered.incrementAndGet()
            emit(1)
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0", onTimeout = TimeoutAction.SKIP)
        open fun movementsIfFree(sku: String): Flow<Int> = flow {
            journal.entered.incrementAndGet()
            emit(1)
        }

        @DistributedLock(name = "'sku:' + #sku")
        open fun outer(sku: String): Flow<Long> = flow {
            emit(ReactiveLockContext.current().awaitSingle().fencingToken())
            emitAll(self.inner(sku))
        }

        @DistributedLock(name = "'sku:' + #sku", timeout = "0")
        open fun inner(sku: String): Flow<Long> = flow {
            emit(ReactiveLockContext.current().awaitSingle().fencingToken())
        }
    }
}
