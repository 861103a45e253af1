package dev.distlock.redis;

import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock contract on redis-server 6.0 (Debian bullseye's 6.0.16), through Lettuce. Redis 6 lacks
 * {@code SET ... NX ... GET} and {@code SET ... GET}; the scripts fall back to separate commands there. The
 * binary comes from {@code .ci/fetch-redis-servers}.
 */
class Redis60LockRegistryIT extends RedisLockRegistryContractIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension().using(RedisBinary.named(RedisBinary.REDIS_6_0));

    @Override
    RedisServer server() {
        return redis.server();
    }

    @Override
    RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout) {
        return RedisConnections.lettuce(server, timeout);
    }
}
