package dev.distlock.redis;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Whether a connection factory talks to a Redis Cluster, told from its configuration without connecting. */
final class ClusterDetection {

    private ClusterDetection() {
    }

    static boolean isCluster(RedisConnectionFactory factory) {
        return isLettuceCluster(factory) || isJedisCluster(factory);
    }

    private static boolean isLettuceCluster(RedisConnectionFactory factory) {
        try {
            return factory instanceof LettuceConnectionFactory lettuce && lettuce.isClusterAware();
        } catch (LinkageError noLettuce) {
            return false;
        }
    }

    private static boolean isJedisCluster(RedisConnectionFactory factory) {
        try {
            return factory instanceof JedisConnectionFactory jedis && jedis.isRedisClusterAware();
        } catch (LinkageError noJedis) {
            return false;
        }
    }
}
