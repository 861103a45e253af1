package dev.distlock.aop

import dev.distlock.annotation.DistributedLock
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.reactor.mono
import reactor.core.publisher.Mono

/**
 * A `suspend fun` under the lock for [ReactiveLockBlockHoundIT], which is Java: a read, a millisecond's suspension,
 * then the write.
 */
open class SuspendCounter {

    @Volatile
    private var count = 0

    /** Open, so that the proxy hands the call to the bean (a final getter would read the proxy's own field). */
    open fun value(): Int = count

    @DistributedLock(name = "'suspend:' + #name", timeout = "60s")
    open suspend fun increment(name: String): Int {
        val read = count
        delay(1)
        count = read + 1
        return read + 1
    }

    companion object {
        /** A call of [increment] through `proxy` as a `Mono`, as a WebFlux handler written with coroutines makes it. */
        @JvmStatic
        fun incrementing(proxy: SuspendCounter, name: String): Mono<Int> =
            mono(Dispatchers.Unconfined) { proxy.increment(name) }
    }
}
