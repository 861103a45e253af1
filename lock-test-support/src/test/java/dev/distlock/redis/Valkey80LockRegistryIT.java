package dev.distlock.redis;

import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The lock contract on valkey-server 8.0 (Debian bookworm-backports' 8.0.1), through Lettuce. The binary
 * comes from {@code .ci/fetch-redis-servers}.
 */
class Valkey80LockRegistryIT extends RedisLockRegistryContractIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension().using(RedisBinary.named(RedisBinary.VALKEY_8_0));

    @Override
    RedisServer server() {
        return redis.server();
    }

    @Override
    RedisConnectionFactory connectionFactory(RedisServer server, Duration timeout) {
        return RedisConnections.lettuce(server, timeout);
    }
}
