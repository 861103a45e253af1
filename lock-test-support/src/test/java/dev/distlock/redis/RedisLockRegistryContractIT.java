package dev.distlock.redis;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The contract on a real redis-server; subclasses choose the client library. Each registry gets its own
 * connection factory, so registries stand for separate processes.
 */
abstract class RedisLockRegistryContractIT extends QueuedLockRegistryContract {

    /** The server of the test class (each subclass registers its own extension). */
    abstract RedisServer server();

    /** A started connection factory on {@code server} whose commands time out after {@code timeout}. */
    abstract RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout);

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        RedisConnectionFactory factory = connectionFactory(server(), Duration.ofSeconds(5));
        closeAfterTest(() -> ((org.springframework.beans.factory.DisposableBean) factory).destroy());
        return RedisLockRegistry.builder(factory).listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        server().command("DEL", ((RedisLockRegistry) registry).keyOf(name));
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        return (Long) server().command("LLEN", ((RedisLockRegistry) registry).keyOf(name) + ":queue");
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        server().command("SET", ((RedisLockRegistry) registry).keyOf(name), value);
    }
}
