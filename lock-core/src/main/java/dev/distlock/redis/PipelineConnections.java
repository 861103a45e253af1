package dev.distlock.redis;

import java.util.concurrent.BlockingDeque;
import java.util.concurrent.LinkedBlockingDeque;
import java.util.function.Function;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;

/**
 * Connections for pipelines (a script followed by {@code WAIT}), which run on a dedicated connection rather than
 * the one the application's threads share. Spring Data gives each pipelined connection a dedicated one of its own;
 * behind a Lettuce factory without a pool (Boot's default) that is a new TCP connection and handshake per call,
 * so such connections are kept open between calls here (at most {@value #MAX_IDLE} idle). A call that fails
 * (an error, or too few replicas acknowledged: perhaps a demoted primary) closes its connection and every idle
 * one, so the next call connects afresh (through Sentinel, to the primary of the moment). Behind a pool (Jedis,
 * or Lettuce with {@code spring.data.redis.lettuce.pool.enabled}) each call borrows from the pool and gives back
 * at once.
 */
final class PipelineConnections implements AutoCloseable {

    static final int MAX_IDLE = 8;

    private final RedisConnectionFactory factory;
    private final boolean keepOpen;
    private final BlockingDeque<RedisConnection> idle = new LinkedBlockingDeque<>(MAX_IDLE);
    private volatile boolean closed;

    PipelineConnections(RedisConnectionFactory factory) {
        this.factory = factory;
        this.keepOpen = opensOneForEveryPipeline(factory);
    }

    /** Runs {@code work} on a connection that is open and not in use by another call. */
    <T> T apply(Function<RedisConnection, T> work) {
        RedisConnection kept = idle.pollFirst();
        RedisConnection connection = kept != null ? kept : factory.getConnection();
        boolean healthy = false;
        try {
            T result = work.apply(connection);
            healthy = true;
            return result;
        } finally {
            if (!healthy) {
                closeIdle();
            }
            if (!healthy || !keepOpen || closed || !idle.offerFirst(connection)) {
                connection.close();
            } else if (closed) {
                closeIdle(); // closed while this one was being given back
            }
        }
    }

    private void closeIdle() {
        for (RedisConnection connection = idle.pollFirst(); connection != null; connection = idle.pollFirst()) {
            connection.close();
        }
    }

    @Override
    public void close() {
        closed = true;
        closeIdle();
    }

    private static boolean opensOneForEveryPipeline(RedisConnectionFactory factory) {
        try {
            return factory instanceof LettuceConnectionFactory lettuce
                    && !(lettuce.getClientConfiguration() instanceof LettucePoolingClientConfiguration);
        } catch (LinkageError noLettuce) {
            return false;
        }
    }
}
