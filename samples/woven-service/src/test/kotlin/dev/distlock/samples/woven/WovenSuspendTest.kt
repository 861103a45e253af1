package dev.distlock.samples.woven

import dev.distlock.core.LockRegistry
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout

/** The Kotlin `suspend fun` woven at compile time: a call of the bean to its private locked function is locked. */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a runaway call fails, never hangs
class WovenSuspendTest {

    @Test
    fun `concurrent reservations of one item run one at a time, holding its lock across suspensions`() {
        WovenLocks.start("distlock.store=memory").use { context ->
            val reservations = context.getBean(Reservations::class.java)
            val registry = context.getBean(LockRegistry::class.java)
            val inside = AtomicInteger()
            val mostInside = AtomicInteger()
            val unlocked = AtomicInteger()

            val keys = runBlocking(Dispatchers.Default) {
                withTimeout(30_000) {
                    (1..4).map {
                        async {
                            reservations.reserve("sku-9") {
                                mostInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
                                delay(10)
                                yield()
                                if (!registry.obtain("reserve:sku-9").isLocked) unlocked.incrementAndGet()
                                inside.decrementAndGet()
                            }
                        }
                    }.awaitAll()
                }
            }

            assertThat(keys).hasSize(4).containsOnly("reserve:sku-9")
            assertThat(mostInside.get()).`as`("reservations at once").isEqualTo(1)
            assertThat(unlocked.get()).`as`("reservations that went on after the lock was gone").isZero()
            assertThat(registry.obtain("reserve:sku-9").isLocked).isFalse()
        }
    }
}
