package dev.distlock.topology;

import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.sentinel.RedisSentinelSet;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Started connection factories on a Redis Cluster and on a Sentinel set, configured as the README recommends
 * (adaptive and periodic cluster topology refresh, reads from the primary).
 */
final class TopologyConnections {

    private TopologyConnections() {
    }

    static LettuceConnectionFactory lettuceCluster(RedisCluster cluster, Duration commandTimeout) {
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enableAllAdaptiveRefreshTriggers()
                .enablePeriodicRefresh(Duration.ofSeconds(2))
                .build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisClusterConfiguration(cluster.seedAddresses()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout)
                        .clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build())
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    static JedisConnectionFactory jedisCluster(RedisCluster cluster, Duration commandTimeout) {
        JedisConnectionFactory factory = new JedisConnectionFactory(new RedisClusterConfiguration(cluster.seedAddresses()),
                JedisClientConfiguration.builder().connectTimeout(commandTimeout).readTimeout(commandTimeout)
                        .usePooling().build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    static LettuceConnectionFactory lettuceSentinel(RedisSentinelSet sentinels, Duration commandTimeout) {
        RedisSentinelConfiguration configuration = new RedisSentinelConfiguration();
        configuration.master(sentinels.masterName());
        sentinels.sentinelAddresses().forEach(address -> {
            String[] hostPort = address.split(":");
            configuration.sentinel(hostPort[0], Integer.parseInt(hostPort[1]));
        });
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
