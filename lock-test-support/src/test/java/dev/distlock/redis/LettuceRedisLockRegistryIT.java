package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The lock contract on Redis through Lettuce (Spring Boot's default client). */
class LettuceRedisLockRegistryIT extends RedisLockRegistryContractIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    RedisServer server() {
        return redis.server();
    }

    @Override
    RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout) {
        return RedisConnections.lettuce(server, timeout);
    }
}
