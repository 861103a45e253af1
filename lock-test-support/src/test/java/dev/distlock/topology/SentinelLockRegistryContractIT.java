package dev.distlock.topology;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import dev.distlock.test.sentinel.RedisSentinelExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The lock contract on a Sentinel set (1 primary, 1 replica, 3 sentinels) through Lettuce. */
class SentinelLockRegistryContractIT extends QueuedLockRegistryContract {

    @RegisterExtension
    static final RedisSentinelExtension redis = new RedisSentinelExtension();

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        RedisConnectionFactory factory = TopologyConnections.lettuceSentinel(redis.sentinelSet(), Duration.ofSeconds(5));
        closeAfterTest(((DisposableBean) factory)::destroy);
        return RedisLockRegistry.builder(factory).listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        redis.sentinelSet().primary().command("DEL", ((RedisLockRegistry) registry).keyOf(name));
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        return (Long) redis.sentinelSet().primary().command("LLEN", ((RedisLockRegistry) registry).keyOf(name) + ":queue");
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        redis.sentinelSet().primary().command("SET", ((RedisLockRegistry) registry).keyOf(name), value);
    }
}
