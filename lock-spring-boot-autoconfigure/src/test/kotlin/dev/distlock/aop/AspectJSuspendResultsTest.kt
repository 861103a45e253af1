package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import java.util.concurrent.CompletableFuture
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.context.annotation.AdviceMode
import reactor.core.publisher.Mono

/**
 * In AspectJ mode a `suspend fun` is locked until it returns: one whose result is itself asynchronous (a `Flow`, a
 * `Mono`, a future) would hand that result on after its lock was released, so the startup refuses it, naming why;
 * a suspend function returning a value, and a plain function returning a `Flow`, are locked.
 */
class AspectJSuspendResultsTest {

    private val woven = LockOperationSource(LockTestConfiguration.DEFAULTS, null, AdviceMode.ASPECTJ)

    @Test
    fun `a suspend function returning a Flow, a Mono or a future is refused in AspectJ mode`() {
        for (name in listOf("flow", "mono", "future")) {
            assertThat(woven.find(method(name), Jobs::class.java).problems()).`as`(name).singleElement().asString()
                .contains("Kotlin suspend function whose result is itself asynchronous",
                    "distlock.advice-mode=proxy")
        }
    }

    @Test
    fun `a suspend function returning a value and a plain function returning a Flow are locked`() {
        for (name in listOf("value", "plainFlow")) {
            assertThat(woven.find(method(name), Jobs::class.java).problems()).`as`(name).isEmpty()
        }
    }

    private fun method(name: String) = Jobs::class.java.declaredMethods.single { it.name == name }

    open class Jobs {
        @DistributedLock(name = "'a'")
        open suspend fun flow(): Flow<Int> = flowOf(1)

        @DistributedLock(name = "'b'")
        open suspend fun mono(): Mono<Int> = Mono.just(1)

        @DistributedLock(name = "'c'")
        open suspend fun future(): CompletableFuture<Int> = CompletableFuture.completedFuture(1)

        @DistributedLock(name = "'d'")
        open suspend fun value(): Int = 1

        @DistributedLock(name = "'e'")
        open fun plainFlow(): Flow<Int> = flowOf(1)
    }
}
