package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.function.BiFunction;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The client libraries the Redis tests run through, as parameters of parameterized tests. */
enum Client {
    LETTUCE(RedisConnections::lettuce),
    JEDIS(RedisConnections::jedis);

    private final BiFunction<RedisServer, Duration, RedisConnectionFactory> factory;

    Client(BiFunction<RedisServer, Duration, RedisConnectionFactory> factory) {
        this.factory = factory;
    }

    /** A started connection factory on {@code server} whose commands time out after {@code commandTimeout}. */
    RedisConnectionFactory connectionFactory(RedisServer server, Duration commandTimeout) {
        return factory.apply(server, commandTimeout);
    }
}
