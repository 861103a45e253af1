package dev.distlock.samples.counter

import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.reactor.awaitSingleOrNull
import org.springframework.data.redis.core.ReactiveStringRedisTemplate
import org.springframework.data.redis.core.script.RedisScript
import org.springframework.stereotype.Component

/**
 * The counters in Redis: plain GET and SET, which is what makes an unguarded increment lose updates.
 *
 * A guarded write also hands over the lock's fencing token, and the store refuses it if a larger token has written
 * the counter already: a holder that lost its lock (paused past its lease, say) cannot overwrite its successor.
 */
@Component
class CounterStore(private val redis: ReactiveStringRedisTemplate) {

    /** The counter's value; 0 if it was never written. */
    suspend fun read(name: String): Long =
        redis.opsForValue().get(valueKey(name)).awaitSingleOrNull()?.toLong() ?: 0

    /** Writes [value] unless a token larger than [fencingToken] wrote the counter before; tells whether it did. */
    suspend fun write(name: String, value: Long, fencingToken: Long): Boolean =
        redis.execute(FENCED_SET, listOf(valueKey(name), fenceKey(name)), listOf(value.toString(), fencingToken.toString()))
            .single().awaitSingle() == 1L

    /** Writes [value] whatever wrote the counter before: for the unguarded increment only. */
    suspend fun writeUnfenced(name: String, value: Long) {
        redis.opsForValue().set(valueKey(name), value.toString()).awaitSingle()
    }

    private companion object {
        // one hash tag, so that both keys of a counter live on one Redis Cluster node, as the script needs
        fun valueKey(name: String) = "counter:{$name}"
        fun fenceKey(name: String) = "counter:{$name}:fence"

        /** The check and the write in one script, so that no other write comes between them. */
        val FENCED_SET: RedisScript<Long> = RedisScript.of(
            """
            local last = tonumber(redis.call('GET', KEYS[2]) or '0')
            if tonumber(ARGV[2]) < last then
              return 0
            end
            redis.call('SET', KEYS[1], ARGV[1])
            redis.call('SET', KEYS[2], ARGV[2])
            return 1
            """.trimIndent(),
            Long::class.java,
        )
    }
}
