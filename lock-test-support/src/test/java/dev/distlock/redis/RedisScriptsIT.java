package dev.distlock.redis;

import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The scripts on the installed redis-server. */
class RedisScriptsIT extends RedisScriptsTests {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    RedisServer server() {
        return redis.server();
    }
}
