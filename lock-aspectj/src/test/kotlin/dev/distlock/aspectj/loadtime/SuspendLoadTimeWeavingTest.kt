package dev.distlock.aspectj.loadtime

import dev.distlock.annotation.DistributedLock
import dev.distlock.aop.DistributedLockAdvisor
import dev.distlock.aop.LockAcquisitionTimeoutException
import dev.distlock.aop.ReactiveLockContext
import dev.distlock.core.LockRegistry
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CancellationException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatThrownBy
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.boot.SpringBootConfiguration
import org.springframework.boot.autoconfigure.EnableAutoConfiguration
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.context.annotation.Bean

/**
 * Kotlin `suspend` functions woven at load time (kotlinc compiles them, the aspectjweaver agent weaves them as
 * `META-INF/aop.xml` says): each call holds its lock across the body's suspensions, until the body completes, fails
 * or its caller is cancelled, as behind Spring's proxies; a call of the bean to itself is locked too.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a runaway call fails, never hangs
class SuspendLoadTimeWeavingTest {

    @Test
    fun `concurrent calls on one name run their bodies one at a time, each holding the lock across its suspensions`() {
        withApplication { counters, registry ->
            val results = runBlocking(Dispatchers.Default) {
                withTimeout(30_000) {
                    (1..4).map { async { counters.increment("a") } }
                        .plus((1..4).map { async { counters.incrementOpen("a") } }).awaitAll()
                }
            }

            assertThat(results).containsExactlyInAnyOrder(1, 2, 3, 4, 5, 6, 7, 8)
            assertThat(counters.mostInside.get()).`as`("bodies at once").isEqualTo(1)
            assertThat(counters.unlocked.get()).`as`("body steps that ran without the lock held").isZero()
            assertThat(registry.obtain("counter:a").isLocked).isFalse()
        }
    }

    @Test
    fun `a call of the bean to its own private suspend function is locked`() {
        withApplication { counters, registry ->
            val key = runBlocking(Dispatchers.Default) { withTimeout(30_000) { counters.report("b") } }

            assertThat(key).isEqualTo("report:b")
            assertThat(counters.unlocked.get()).`as`("body steps that ran without the lock held").isZero()
            assertThat(registry.obtain("report:b").isLocked).isFalse()
        }
    }

    @Test
    fun `a body that fails after suspending releases the lock and its caller gets the failure`() {
        withApplication { counters, registry ->
            assertThatThrownBy { runBlocking { withTimeout(30_000) { counters.failAfterSuspending("c") } } }
                .isInstanceOf(IllegalStateException::class.java).hasMessage("failed holding counter:c")

            assertThat(registry.obtain("counter:c").isLocked).isFalse()
            assertThat(runBlocking { withTimeout(30_000) { counters.incrementNow("c") } }).`as`("a call with no wait")
                .isEqualTo(1)
        }
    }

    @Test
    fun `a cancelled caller cancels the body and releases the lock`() {
        withApplication { counters, registry ->
            runBlocking(Dispatchers.Default) {
                withTimeout(30_000) {
                    val caller = launch { counters.holdUntilCancelled("d") }
                    counters.holding.await()
                    assertThat(registry.obtain("counter:d").isLocked).isTrue()

                    caller.cancelAndJoin()

                    assertThat(counters.bodyCancelled.await()).isInstanceOf(CancellationException::class.java)
                    // waits (bounded) for the release, which the cancellation sets off without waiting for it
                    assertThat(counters.increment("d")).isEqualTo(1)
                }
            }
        }
    }

    @Test
    fun `a busy lock fails the call as declared without running the body`() {
        withApplication { counters, registry ->
            val holder = Thread { registry.obtain("counter:busy").lock() }
            holder.start()
            holder.join()

            assertThatThrownBy { runBlocking { counters.incrementNow("busy") } }
                .isInstanceOf(LockAcquisitionTimeoutException::class.java)
            assertThat(counters.entered.get()).isZero()
        }
    }

    @Test
    fun `nested calls are locked calls of their own, and one on the same name runs under the outer hold`() {
        withApplication { counters, registry ->
            val (keys, nested) = runBlocking(Dispatchers.Default) {
                withTimeout(30_000) { counters.countdown("e", 3) to counters.incrementTwice("f") }
            }

            assertThat(keys).`as`("the lock each level sees as its own")
                .containsExactly("depth:e:3", "depth:e:2", "depth:e:1", "depth:e:0")
            assertThat(nested).`as`("the inner call waits no time on the name the outer call holds").isEqualTo(1)
            assertThat(counters.unlocked.get()).`as`("body steps that ran without the lock held").isZero()
            assertThat((0..3).map { registry.obtain("depth:e:$it").isLocked } + registry.obtain("counter:f").isLocked)
                .containsOnly(false)
        }
    }

    private fun withApplication(test: (Counters, LockRegistry) -> Unit) {
        SpringApplicationBuilder(App::class.java)
            .properties("distlock.store=memory", "distlock.advice-mode=aspectj", "spring.main.banner-mode=off")
            .run().use { context: ConfigurableApplicationContext ->
                assertThat(context.getBeanProvider(DistributedLockAdvisor::class.java).getIfAvailable()).isNull()
                test(context.getBean(Counters::class.java), context.getBean(LockRegistry::class.java))
            }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    open class App {

        @Bean
        open fun counters(registry: LockRegistry) = Counters(registry)
    }

    /**
     * The annotated functions suspend in their own bodies: a final function's state machine resumes by calling the
     * woven method again; an open function's lives in a `$suspendImpl` method beside it.
     */
    open class Counters(private val registry: LockRegistry) {

        val entered = AtomicInteger()
        val inside = AtomicInteger()
        val mostInside = AtomicInteger()
        val unlocked = AtomicInteger()
        val holding = CompletableDeferred<Unit>()
        val bodyCancelled = CompletableDeferred<Throwable>()

        @DistributedLock(name = "'counter:' + #name", timeout = "20s")
        suspend fun increment(name: String): Int {
            val entry = enter("counter:$name")
            delay(5)
            checkHeld("counter:$name")
            yield()
            leave("counter:$name")
            return entry
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "20s")
        open suspend fun incrementOpen(name: String): Int {
            val entry = enter("counter:$name")
            delay(5)
            checkHeld("counter:$name")
            yield()
            leave("counter:$name")
            return entry
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "0")
        suspend fun incrementNow(name: String): Int = entered.incrementAndGet()

        /** Not annotated: only weaving locks its call of [locked]. */
        suspend fun report(name: String): String = locked(name)

        @DistributedLock(name = "'report:' + #name", timeout = "10s")
        private suspend fun locked(name: String): String {
            delay(1)
            checkHeld("report:$name")
            return ReactiveLockContext.current().awaitSingle().key()
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "10s")
        suspend fun failAfterSuspending(name: String): Int {
            delay(1)
            checkHeld("counter:$name")
            throw IllegalStateException("failed holding counter:$name")
        }

        @DistributedLock(name = "'counter:' + #name", timeout = "10s")
        suspend fun holdUntilCancelled(name: String) {
            try {
                holding.complete(Unit)
                awaitCancellation()
            } catch (cancelled: CancellationException) {
                bodyCancelled.complete(cancelled)
                throw cancelled
            }
        }

        /**
         * Calls itself with its own frame as the continuation, after suspending: each level is a locked call on a
         * name of its own, held while the deeper levels run.
         */
        @DistributedLock(name = "'depth:' + #name + ':' + #depth", timeout = "10s")
        suspend fun countdown(name: String, depth: Int): List<String> {
            val key = ReactiveLockContext.current().awaitSingle().key()
            delay(1)
            (depth..3).forEach { checkHeld("depth:$name:$it") }
            val deeper = if (depth > 0) countdown(name, depth - 1) else emptyList()
            checkHeld("depth:$name:$depth")
            return listOf(key) + deeper
        }

        /** Calls, holding the name, a function on the same name that does not wait. */
        @DistributedLock(name = "'counter:' + #name", timeout = "10s")
        suspend fun incrementTwice(name: String): Int {
            delay(1)
            checkHeld("counter:$name")
            return incrementNow(name)
        }

        private fun enter(key: String): Int {
            val entry = entered.incrementAndGet()
            checkHeld(key)
            mostInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
            return entry
        }

        private fun leave(key: String) {
            checkHeld(key)
            inside.decrementAndGet()
        }

        private fun checkHeld(key: String) {
            if (!registry.obtain(key).isLocked) {
                unlocked.incrementAndGet()
            }
        }
    }
}
