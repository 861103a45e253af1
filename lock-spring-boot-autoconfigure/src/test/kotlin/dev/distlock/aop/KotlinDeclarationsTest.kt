package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * Kotlin declarations under `@DistributedLock` start: a function returning a `Flow` is locked for each collection
 * (see [FlowLockTest]), a `suspend fun` for its whole run (see [SuspendFunctionLockTest]).
 */
class KotlinDeclarationsTest {

    private val runner = ApplicationContextRunner().withUserConfiguration(LockTestConfiguration::class.java)

    @Test
    fun `a function returning a Flow starts and is locked when collected`() {
        runner.withBean(Flowing::class.java).run { context ->
            assertThat(context).hasNotFailed()
            assertThat(runBlocking { context.getBean(Flowing::class.java).reservations("sku-1").toList() })
                .containsExactly(1)
        }
    }

    @Test
    fun `a plain Kotlin function is locked as usual`() {
        runner.withBean(Plain::class.java).run { context ->
            assertThat(context).hasNotFailed()
            assertThat(context.getBean(Plain::class.java).reserve("sku-1")).isEqualTo(1)
        }
    }

    @Test
    fun `onTimeout SKIP on a non-nullable return type fails the startup, naming each function`() {
        runner.withBean(SkippingNonNull::class.java).run { context ->
            assertThat(context).hasFailed()
            assertThat(context.startupFailure)
                .hasStackTraceContaining("SkippingNonNull.reserve: onTimeout = SKIP returns null")
                .hasStackTraceContaining("SkippingNonNull.name: onTimeout = SKIP returns null")
                .hasStackTraceContaining("allowed: a nullable return type (T?), Unit, or onTimeout = FAIL")
        }
    }

    @Test
    fun `onTimeout SKIP on a nullable, Unit, primitive or Flow return type starts`() {
        runner.withBean(SkippingSafely::class.java).run { context ->
            assertThat(context).hasNotFailed()
            assertThat(runBlocking { context.getBean(SkippingSafely::class.java).reserve("sku-1") }).isEqualTo(1)
        }
    }

    open class SkippingNonNull {
        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open suspend fun reserve(sku: String): Int = 1

        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open fun name(sku: String): String = sku
    }

    open class SkippingSafely {
        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open suspend fun reserve(sku: String): Int? = 1

        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open suspend fun record(sku: String) {
        }

        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open fun label(sku: String): String? = sku

        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open fun count(sku: String): Int = 1

        @DistributedLock(name = "'sku:' + #sku", onTimeout = DistributedLock.TimeoutAction.SKIP)
        open fun reservations(sku: String): Flow<Int> = flowOf(1)
    }

    open class Flowing {
        @DistributedLock(name = "'sku:' + #sku")
        open fun reservations(sku: String): Flow<Int> = flowOf(1)
    }

    open class Plain {
        @DistributedLock(name = "'sku:' + #sku")
        open fun reserve(sku: String): Int = 1
    }
}
