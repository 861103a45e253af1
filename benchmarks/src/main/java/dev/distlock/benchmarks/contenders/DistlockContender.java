package dev.distlock.benchmarks.contenders;

import dev.distlock.core.FencedLock;
import dev.distlock.redis.RedisLockRegistry;
import java.util.concurrent.atomic.LongAdder;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link RedisLockRegistry} with its default settings (renewed 30 s lease, so the watchdog runs,
 * and fencing tokens), one registry and one Spring Data Lettuce connection factory per client.
 */
public final class DistlockContender implements Contender {

    private final RedisAddress redis;

    public DistlockContender(RedisAddress redis) {
        this.redis = redis;
    }

    @Override
    public String name() {
        return "distlock";
    }

    @Override
    public String description() {
        return "distlock " + LibraryVersion.distlock() + " `RedisLockRegistry`, defaults (watchdog, fencing tokens), "
                + "Spring Data Redis " + LibraryVersion.of(LettuceConnectionFactory.class) + " on Lettuce";
    }

    @Override
    public LockClient newClient() {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-distlock").build();
        // fencing tokens are read on every acquisition, as a user of fencing would
        LongAdder tokens = new LongAdder();
        return new LockObjectClient<FencedLock>(registry::obtain, lock -> tokens.add(lock.fencingToken()), () -> {
            registry.close();
            factory.destroy();
        });
    }
}
