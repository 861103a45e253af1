package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The lock contract on Redis through Jedis. */
class JedisRedisLockRegistryIT extends RedisLockRegistryContractIT {

    @Override
    RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout) {
        return RedisConnections.jedis(server, timeout);
    }
}
