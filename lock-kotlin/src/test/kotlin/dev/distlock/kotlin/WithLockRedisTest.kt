package dev.distlock.kotlin

import dev.distlock.redis.RedisLockRegistry
import dev.distlock.test.RedisServer
import java.time.Duration
import java.util.concurrent.Executors
import java.util.concurrent.TimeUnit
import java.util.concurrent.atomic.AtomicInteger
import kotlin.time.Duration.Companion.seconds
import kotlinx.coroutines.asCoroutineDispatcher
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.delay
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.Timeout
import org.springframework.data.redis.connection.RedisStandaloneConfiguration
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory

/**
 * `withLock` on a real redis-server, two registries standing for two processes: coroutines on one thread each
 * share one name, the counter stays exact, and the Redis key is gone at the end.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WithLockRedisTest {

    companion object {
        private lateinit var server: RedisServer

        @JvmStatic
        @BeforeAll
        fun start() {
            server = RedisServer.start()
        }

        @JvmStatic
        @AfterAll
        fun stop() {
            server.stop()
        }
    }

    @Test
    fun `two registries with 200 coroutines each on one thread keep a shared counter exact`() {
        val factories = List(2) { connectionFactory() }
        val registries = factories.map { RedisLockRegistry.builder(it).keyPrefix("kt").build() }
        val threads = List(2) { Executors.newSingleThreadExecutor() }
        val inside = AtomicInteger()
        val mostInside = AtomicInteger()
        val counter = AtomicInteger() // read, then written after a pause: only the lock keeps it exact
        try {
            runBlocking {
                withTimeout(60.seconds) {
                    registries.zip(threads).flatMap { (registry, thread) ->
                        List(200) {
                            async(thread.asCoroutineDispatcher()) {
                                registry.withLock("counter", Duration.ofSeconds(50)) {
                                    mostInside.accumulateAndGet(inside.incrementAndGet(), ::maxOf)
                                    val seen = counter.get()
                                    delay(1)
                                    counter.set(seen + 1)
                                    inside.decrementAndGet()
                                }
                            }
                        }
                    }.awaitAll()
                }
            }
        } finally {
            registries.forEach { it.close() }
            factories.forEach { it.destroy() }
            threads.forEach { it.shutdownNow() }
        }

        assertThat(counter.get()).isEqualTo(400)
        assertThat(mostInside.get()).`as`("bodies at once").isEqualTo(1)
        assertThat(server.command("GET", "kt:{counter}") as String?).`as`("freed").startsWith("~ ")
    }

    private fun connectionFactory(): LettuceConnectionFactory {
        val factory = LettuceConnectionFactory(
            RedisStandaloneConfiguration(server.host(), server.port()),
            LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build(),
        )
        factory.afterPropertiesSet()
        factory.start()
        return factory
    }
}
