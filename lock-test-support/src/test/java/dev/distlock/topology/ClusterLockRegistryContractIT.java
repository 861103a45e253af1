package dev.distlock.topology;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisBinary;
import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.cluster.RedisClusterExtension;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock contract on a 6-node cluster (3 primaries, 3 replicas); subclasses choose the server and the client.
 * Every key of a lock shares a hash tag, so its scripts run on the one primary that owns the slot, and hand-off
 * notices (classic PUBLISH) reach waiters subscribed on any node.
 */
abstract class ClusterLockRegistryContractIT extends QueuedLockRegistryContract {

    abstract RedisCluster cluster();

    /** Through Lettuce, with topology refresh on, unless a variant chooses another client. */
    RedisConnectionFactory connectionFactory(RedisCluster cluster, Duration timeout) {
        return TopologyConnections.lettuceCluster(cluster, timeout);
    }

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        RedisConnectionFactory factory = connectionFactory(cluster(), Duration.ofSeconds(5));
        closeAfterTest(((DisposableBean) factory)::destroy);
        return RedisLockRegistry.builder(factory).listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        String key = ((RedisLockRegistry) registry).keyOf(name);
        cluster().primaryForKey(key).command("DEL", key);
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        String queue = ((RedisLockRegistry) registry).keyOf(name) + ":queue";
        return (Long) cluster().primaryForKey(queue).command("LLEN", queue);
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        String key = ((RedisLockRegistry) registry).keyOf(name);
        cluster().primaryForKey(key).command("SET", key, value);
    }

    /** Redis 7.0 through Lettuce. */
    static class LettuceIT extends ClusterLockRegistryContractIT {

        @RegisterExtension
        static final RedisClusterExtension redis = new RedisClusterExtension();

        @Override
        RedisCluster cluster() {
            return redis.cluster();
        }
    }

    /** Redis 7.0 through Jedis. */
    static class JedisIT extends ClusterLockRegistryContractIT {

        @RegisterExtension
        static final RedisClusterExtension redis = new RedisClusterExtension();

        @Override
        RedisCluster cluster() {
            return redis.cluster();
        }

        @Override
        RedisConnectionFactory connectionFactory(RedisCluster cluster, Duration timeout) {
            return TopologyConnections.jedisCluster(cluster, timeout);
        }
    }

    /** Valkey 8.0 through Lettuce (the binary comes from {@code .ci/fetch-redis-servers}). */
    static class ValkeyIT extends ClusterLockRegistryContractIT {

        @RegisterExtension
        static final RedisClusterExtension redis = new RedisClusterExtension(
                RedisCluster.builder().binary(RedisBinary.named(RedisBinary.VALKEY_8_0)));

        @Override
        RedisCluster cluster() {
            return redis.cluster();
        }
    }
}
