package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The lock contract on Redis through Lettuce (Spring Boot's default client). */
class LettuceRedisLockRegistryIT extends RedisLockRegistryContractIT {

    @Override
    RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout) {
        return RedisConnections.lettuce(server, timeout);
    }
}
