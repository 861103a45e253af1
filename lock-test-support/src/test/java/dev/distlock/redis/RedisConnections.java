package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Started connection factories of both client libraries, on a test server. */
final class RedisConnections {

    private RedisConnections() {
    }

    static LettuceConnectionFactory lettuce(RedisServer server, Duration commandTimeout) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(server.host(), server.port()),
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    static JedisConnectionFactory jedis(RedisServer server, Duration commandTimeout) {
        JedisClientConfiguration configuration = JedisClientConfiguration.builder()
                .connectTimeout(commandTimeout)
                .readTimeout(commandTimeout)
                .usePooling()
                .build();
        configuration.getPoolConfig().ifPresent(pool -> pool.setMaxTotal(32));
        JedisConnectionFactory factory = new JedisConnectionFactory(
                new RedisStandaloneConfiguration(server.host(), server.port()), configuration);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
