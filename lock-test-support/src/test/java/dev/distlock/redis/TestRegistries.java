package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.function.UnaryOperator;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Registries of a test, each on a connection factory of its own (a process each), closed last-in first-out
 * after the test: registries before their connection factories.
 */
final class TestRegistries implements AutoCloseable {

    private final Deque<AutoCloseable> closeables = new ArrayDeque<>();

    /** A registry through {@code client} on {@code server}, configured by {@code settings}. */
    RedisLockRegistry registry(RedisServer server, Client client, Duration commandTimeout,
            UnaryOperator<RedisLockRegistry.Builder> settings) {
        RedisConnectionFactory factory = client.connectionFactory(server, commandTimeout);
        closeables.push(((DisposableBean) factory)::destroy);
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory)).build();
        closeables.push(registry);
        return registry;
    }

    /** Closes {@code resource} with the registries (it must outlive those made after it). */
    void closeLater(AutoCloseable resource) {
        closeables.push(resource);
    }

    @Override
    public void close() throws Exception {
        while (!closeables.isEmpty()) {
            closeables.pop().close();
        }
    }
}
