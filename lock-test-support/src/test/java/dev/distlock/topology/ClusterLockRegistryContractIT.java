package dev.distlock.topology;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.cluster.RedisClusterExtension;
import dev.distlock.test.contract.QueuedLockRegistryContract;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock contract on a 6-node Redis Cluster (3 primaries, 3 replicas); subclasses choose the client. Every
 * key of a lock shares a hash tag, so its scripts run on the one primary that owns the slot, and hand-off
 * notices (classic PUBLISH) reach waiters subscribed on any node.
 */
abstract class ClusterLockRegistryContractIT extends QueuedLockRegistryContract {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    abstract RedisConnectionFactory connectionFactory(RedisCluster cluster, Duration timeout);

    @Override
    protected LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) {
        RedisConnectionFactory factory = connectionFactory(redis.cluster(), Duration.ofSeconds(5));
        closeAfterTest(((DisposableBean) factory)::destroy);
        return RedisLockRegistry.builder(factory).listener(listener).maxPollInterval(maxPollInterval).build();
    }

    @Override
    protected void deleteFromOutside(LockRegistry registry, String name) {
        String key = ((RedisLockRegistry) registry).keyOf(name);
        redis.cluster().primaryForKey(key).command("DEL", key);
    }

    @Override
    protected long waitersQueued(LockRegistry registry, String name) {
        String queue = ((RedisLockRegistry) registry).keyOf(name) + ":queue";
        return (Long) redis.cluster().primaryForKey(queue).command("LLEN", queue);
    }

    @Override
    protected void overwriteFromOutside(LockRegistry registry, String name, String value) {
        String key = ((RedisLockRegistry) registry).keyOf(name);
        redis.cluster().primaryForKey(key).command("SET", key, value);
    }

    /** Through Lettuce, with topology refresh on. */
    static class LettuceIT extends ClusterLockRegistryContractIT {

        @Override
        RedisConnectionFactory connectionFactory(RedisCluster cluster, Duration timeout) {
            return TopologyConnections.lettuceCluster(cluster, timeout);
        }
    }

    /** Through Jedis. */
    static class JedisIT extends ClusterLockRegistryContractIT {

        @Override
        RedisConnectionFactory connectionFactory(RedisCluster cluster, Duration timeout) {
            return TopologyConnections.jedisCluster(cluster, timeout);
        }
    }
}
