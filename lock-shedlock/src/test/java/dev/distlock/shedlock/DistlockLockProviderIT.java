package dev.distlock.shedlock;

import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * ShedLock's provider contract on distlock over a real redis-server: each registry has a connection of its own, as
 * separate application instances have.
 */
class DistlockLockProviderIT extends ShedLockProviderContract {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Override
    protected LockRegistry newRegistry() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(redis.server().host(), redis.server().port()));
        factory.afterPropertiesSet();
        factory.start();
        closeAfterEach.push(factory::destroy);
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).build();
        closeAfterEach.push(registry);
        return registry;
    }
}
