package dev.distlock.redis;

import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The scripts on redis-server 6.0, where they replace {@code SET ... GET} by separate commands. */
class Redis60ScriptsIT extends RedisScriptsTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension().using(RedisBinary.named(RedisBinary.REDIS_6_0));

    @Override
    RedisServer server() {
        return redis.server();
    }
}
