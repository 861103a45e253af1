package dev.distlock.samples.counter

import java.util.concurrent.atomic.AtomicInteger
import org.springframework.web.server.ServerWebExchange
import org.springframework.web.server.WebFilter
import org.springframework.web.server.WebFilterChain
import reactor.core.publisher.Mono

/**
 * Counts the requests an instance is handling at once, and the most it handled at once: how many were waiting for
 * the lock together. Added to the test's instances as a source; not a @Component, which the application's
 * component scan would find.
 */
class InFlightRequests : WebFilter {

    private val now = AtomicInteger()
    private val most = AtomicInteger()

    /** The most requests handled at once since the last [reset]. */
    fun most(): Int = most.get()

    fun reset() = most.set(now.get())

    override fun filter(exchange: ServerWebExchange, chain: WebFilterChain): Mono<Void> =
        Mono.defer {
            most.accumulateAndGet(now.incrementAndGet(), ::maxOf)
            chain.filter(exchange)
        }.doFinally { now.decrementAndGet() }
}
