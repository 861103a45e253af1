package dev.distlock.samples.counter

import dev.distlock.test.RedisServerExtension
import java.lang.management.ManagementFactory
import java.time.Duration
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.http.client.reactive.ReactorClientHttpConnector
import org.springframework.web.reactive.function.client.WebClient
import org.springframework.web.reactive.function.client.bodyToMono
import reactor.core.publisher.Flux
import reactor.core.publisher.Mono
import reactor.netty.http.client.HttpClient
import reactor.netty.resources.ConnectionProvider

/**
 * Two instances of the service (two application contexts, as two processes would be) on one real redis-server,
 * loaded with hundreds of concurrent increments of one counter over non-blocking HTTP.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ReactiveCounterIT {

    @Test
    fun `concurrent increments from two instances on one name all count, without a thread per waiting request`() {
        warmUp()
        val threads = ManagementFactory.getThreadMXBean()
        instances.forEach { it.getBean(InFlightRequests::class.java).reset() }
        // the JVM's own high-water mark: unlike sampling, it also catches a thread that lived only briefly
        threads.resetPeakThreadCount()
        val threadsBefore = threads.threadCount

        val start = System.nanoTime()
        val responses = load("hot", "increment", REQUESTS)
        val elapsed = Duration.ofNanos(System.nanoTime() - start)

        val threadGrowth = threads.peakThreadCount - threadsBefore
        val mostWaiting = instances.sumOf { it.getBean(InFlightRequests::class.java).most() }
        println("$REQUESTS locked increments in ${elapsed.toMillis()}ms: $threadsBefore live threads before, peak " +
            "growth $threadGrowth, at most $mostWaiting requests in the two instances at once")
        assertThat(responses).allSatisfy { assertThat(it.status).isEqualTo(200) }
        // each increment saw the one before it: the values are 1..REQUESTS, each once, and the last one stayed
        assertThat(responses.map { it.value }).containsExactlyInAnyOrderElementsOf(1L..REQUESTS)
        instances.forEach { assertThat(value(it, "hot")).isEqualTo(REQUESTS.toLong()) }
        // at least half of the requests waited for the lock at the same time, yet the JVM started hardly a thread
        assertThat(mostWaiting).`as`("requests in the instances at once").isGreaterThanOrEqualTo(REQUESTS / 2)
        assertThat(threadGrowth).`as`("threads started during the load").isLessThan(MAX_THREAD_GROWTH)
    }

    @Test
    fun `the same increments without the lock lose updates`() {
        val responses = load("racy", "increment-unlocked", UNLOCKED_REQUESTS)

        assertThat(responses).allSatisfy { assertThat(it.status).isEqualTo(200) }
        // the control: the load really races, so that the exact count above is the lock's doing
        assertThat(value(instances[0], "racy")).isPositive().isLessThan(UNLOCKED_REQUESTS.toLong())
    }

    @Test
    fun `the store refuses a write with an older fencing token than the last one`() {
        val store = instances[0].getBean(CounterStore::class.java)

        runBlocking {
            withTimeout(WAIT.toMillis()) {
                assertThat(store.write("fenced", 7, 100)).isTrue()
                assertThat(store.write("fenced", 8, 99)).`as`("write with an older token").isFalse()
                assertThat(store.write("fenced", 9, 100)).`as`("write with the same token").isTrue()
            }
        }
        assertThat(value(instances[1], "fenced")).isEqualTo(9)
    }

    /** One response: its HTTP status and the counter value in its body (-1 if there was none). */
    private data class Response(val status: Int, val value: Long)

    /** Sends [count] POSTs to /counters/[name]/[action], alternating between the instances, all at once. */
    private fun load(name: String, action: String, count: Int): List<Response> {
        val calls = (0 until count).map { call(ports[it % ports.size], "/counters/$name/$action") }
        // one subscription per call up front (merge's default concurrency would queue those past 256)
        return Flux.fromIterable(calls).flatMap({ it }, count).collectList().block(LOAD_WAIT)!!
    }

    private fun call(port: Int, path: String): Mono<Response> =
        client.post().uri("http://localhost:$port$path").exchangeToMono { response ->
            response.bodyToMono<Long>().defaultIfEmpty(-1).map { Response(response.statusCode().value(), it) }
        }

    private fun value(instance: ConfigurableApplicationContext, name: String): Long =
        client.get().uri("http://localhost:${port(instance)}/counters/$name").retrieve().bodyToMono<Long>()
            .block(WAIT)!!

    /** A few calls through each instance, so that the thread pools they start lazily are there before counting. */
    private fun warmUp() {
        repeat(3) { load("warm-up", "increment", ports.size * 4) }
    }

    companion object {
        private const val REQUESTS = 400
        private const val UNLOCKED_REQUESTS = 200
        /** Far fewer than the requests waiting at once: a thread per waiting request would be hundreds. */
        private const val MAX_THREAD_GROWTH = 50
        private val WAIT = Duration.ofSeconds(10)
        /** Longer than the lock's 60s timeout, so that a request that timed out shows as a 503, not as no answer. */
        private val LOAD_WAIT = Duration.ofSeconds(90)

        @JvmField
        @RegisterExtension
        val redis = RedisServerExtension()

        private lateinit var instances: List<ConfigurableApplicationContext>
        private lateinit var ports: List<Int>

        /** A connection per request, so that every request reaches an instance at once instead of queueing here. */
        private val connections = ConnectionProvider.builder("reactive-counter-it").maxConnections(REQUESTS)
            .pendingAcquireMaxCount(-1).pendingAcquireTimeout(LOAD_WAIT).build()
        private val client = WebClient.builder()
            .clientConnector(ReactorClientHttpConnector(HttpClient.create(connections).responseTimeout(LOAD_WAIT)))
            .build()

        @JvmStatic
        @BeforeAll
        fun startTwoInstances() {
            instances = listOf(instance(), instance())
            ports = instances.map(::port)
        }

        @JvmStatic
        @AfterAll
        fun stopInstances() {
            connections.dispose()
            if (::instances.isInitialized) {
                instances.forEach { it.close() }
            }
        }

        private fun instance(): ConfigurableApplicationContext =
            SpringApplicationBuilder(ReactiveCounterApplication::class.java, InFlightRequests::class.java)
                .web(WebApplicationType.REACTIVE)
                .run(
                    // arguments, not default properties: those would lose to application.yml's localhost:6379
                    "--spring.data.redis.host=${redis.server().host()}",
                    "--spring.data.redis.port=${redis.server().port()}",
                    "--server.port=0",
                    "--spring.main.banner-mode=off",
                )

        private fun port(instance: ConfigurableApplicationContext): Int =
            instance.environment.getRequiredProperty("local.server.port", Int::class.java)
    }
}
