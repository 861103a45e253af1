package dev.distlock.benchmarks.contenders;

import dev.distlock.core.FencedLock;
import dev.distlock.redis.RedisLockRegistry;
import java.util.concurrent.TimeUnit;
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
        return new Client(factory, registry);
    }

    private static final class Client implements LockClient {

        private final LettuceConnectionFactory factory;
        private final RedisLockRegistry registry;
        /** Fencing tokens are read on every acquisition, as a user of fencing would; summed so the read stays. */
        private volatile long tokenSum;

        Client(LettuceConnectionFactory factory, RedisLockRegistry registry) {
            this.factory = factory;
            this.registry = registry;
        }

        @Override
        public Hold tryLock(String key, long waitNanos) throws InterruptedException {
            FencedLock lock = registry.obtain(key);
            if (!lock.tryLock(waitNanos, TimeUnit.NANOSECONDS)) {
                return null;
            }
            tokenSum += lock.fencingToken();
            return lock::unlock;
        }

        @Override
        public void close() {
            registry.close();
            factory.destroy();
        }
    }
}
