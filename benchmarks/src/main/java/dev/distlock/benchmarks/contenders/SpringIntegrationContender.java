package dev.distlock.benchmarks.contenders;

import java.util.concurrent.locks.Lock;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/**
 * Spring Integration's {@link RedisLockRegistry} in one of its two modes, with its defaults otherwise (60 s
 * expiry, no renewal; the spin lock retries every 100 ms). One registry and one Spring Data Lettuce connection
 * factory per client.
 */
public final class SpringIntegrationContender implements Contender {

    private final RedisAddress redis;
    private final RedisLockType type;

    /**
     * @param type {@link RedisLockType#SPIN_LOCK} (polls) or {@link RedisLockType#PUB_SUB_LOCK} (waits for
     *        release messages)
     */
    public SpringIntegrationContender(RedisAddress redis, RedisLockType type) {
        this.redis = redis;
        this.type = type;
    }

    @Override
    public String name() {
        return type == RedisLockType.SPIN_LOCK ? "si-spin" : "si-pubsub";
    }

    @Override
    public String description() {
        return "Spring Integration " + LibraryVersion.of(RedisLockRegistry.class) + " `RedisLockRegistry`, "
                + type + ", defaults (60 s expiry, no renewal)";
    }

    @Override
    public LockClient newClient() {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        RedisLockRegistry registry = new RedisLockRegistry(factory, "bench-" + name());
        registry.setRedisLockType(type);
        return new LockObjectClient<Lock>(registry::obtain, lock -> { }, () -> {
            registry.destroy();
            factory.destroy();
        });
    }
}
