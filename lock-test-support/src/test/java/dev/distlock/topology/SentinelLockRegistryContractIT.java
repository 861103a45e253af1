package dev.distlock.topology;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisBinary;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import dev.distlock.test.sentinel.RedisSentinelExtension;
import dev.distlock.test.sentinel.RedisSentinelSet;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock contract on a Sentinel set (1 primary, 1 replica, 3 sentinels) through Lettuce; subclasses choose the
 * server and the settings.
 */
abstract class SentinelLockRegistryContractIT extends QueuedLockRegistryContract {

    abstract RedisSentinelSet sentinelSet();

    /** Settings beyond the contract's own. */
    RedisLockRegistry.Builder configure(RedisLockRegistry.Builder builder) {
        return builder;
    }

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        RedisConnectionFactory factory = TopologyConnections.lettuceSentinel(sentinelSet(), Duration.ofSeconds(5));
        closeAfterTest(((DisposableBean) factory)::destroy);
        return configure(RedisLockRegistry.builder(factory)).listener(listener).maxPollInterval(maxPollInterval)
                .build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        sentinelSet().primary().command("DEL", ((RedisLockRegistry) registry).keyOf(name));
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        return (Long) sentinelSet().primary().command("LLEN", ((RedisLockRegistry) registry).keyOf(name) + ":queue");
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        sentinelSet().primary().command("SET", ((RedisLockRegistry) registry).keyOf(name), value);
    }

    /** Redis 7.0. */
    static class RedisIT extends SentinelLockRegistryContractIT {

        @RegisterExtension
        static final RedisSentinelExtension redis = new RedisSentinelExtension();

        @Override
        RedisSentinelSet sentinelSet() {
            return redis.sentinelSet();
        }
    }

    /** Redis 7.0 with replica acknowledgement: every acquisition, hand-off and renewal waits for the replica. */
    static class AcknowledgedIT extends SentinelLockRegistryContractIT {

        @RegisterExtension
        static final RedisSentinelExtension redis = new RedisSentinelExtension();

        @Override
        RedisSentinelSet sentinelSet() {
            return redis.sentinelSet();
        }

        @Override
        RedisLockRegistry.Builder configure(RedisLockRegistry.Builder builder) {
            return builder.replicaAcknowledgement(1, Duration.ofMillis(200));
        }
    }

    /** Valkey 8.0 (the binary comes from {@code .ci/fetch-redis-servers}). */
    static class ValkeyIT extends SentinelLockRegistryContractIT {

        @RegisterExtension
        static final RedisSentinelExtension redis = new RedisSentinelExtension(
                RedisSentinelSet.builder().binary(RedisBinary.named(RedisBinary.VALKEY_8_0)));

        @Override
        RedisSentinelSet sentinelSet() {
            return redis.sentinelSet();
        }
    }
}
