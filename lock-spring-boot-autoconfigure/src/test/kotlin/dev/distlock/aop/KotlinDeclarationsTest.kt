package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flowOf
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.boot.test.context.runner.ApplicationContextRunner
import org.springframework.core.NestedExceptionUtils

/**
 * Kotlin declarations the lock cannot follow yet fail the startup, naming the function: a function returning a
 * `Flow` would otherwise be released before the flow is collected. (`suspend fun`s are locked: see
 * [SuspendFunctionLockTest].)
 */
class KotlinDeclarationsTest {

    private val runner = ApplicationContextRunner().withUserConfiguration(LockTestConfiguration::class.java)

    @Test
    fun `a function returning a Flow fails the startup naming it`() {
        assertStartupFails(Flowing::class.java) { message ->
            assertThat(message).contains("Flowing.reservations").contains("is a Kotlin Flow")
        }
    }

    @Test
    fun `a plain Kotlin function is locked as usual`() {
        runner.withBean(Plain::class.java).run { context ->
            assertThat(context).hasNotFailed()
            assertThat(context.getBean(Plain::class.java).reserve("sku-1")).isEqualTo(1)
        }
    }

    private fun assertStartupFails(bean: Class<*>, message: (String) -> Unit) {
        runner.withBean(bean).run { context ->
            val failure = context.startupFailure
            assertThat(failure).`as`("startup failure").isNotNull()
            val cause = NestedExceptionUtils.getMostSpecificCause(failure!!)
            assertThat(cause).isInstanceOf(InvalidDistributedLockException::class.java)
            message(cause.message!!)
        }
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
