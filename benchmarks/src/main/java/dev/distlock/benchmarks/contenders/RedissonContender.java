package dev.distlock.benchmarks.contenders;

import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson's {@link RLock}, one {@link RedissonClient} per client with the default single-server settings;
 * {@code tryLock(wait, unit)} without a lease time, so Redisson's watchdog renews the lock.
 */
public final class RedissonContender implements Contender {

    private final RedisAddress redis;

    public RedissonContender(RedisAddress redis) {
        this.redis = redis;
    }

    @Override
    public String name() {
        return "redisson";
    }

    @Override
    public String description() {
        return "Redisson " + LibraryVersion.of(Redisson.class) + " `RLock.tryLock(wait, unit)`, defaults (watchdog)";
    }

    @Override
    public LockClient newClient() {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        return new Client(Redisson.create(config));
    }

    private static final class Client implements LockClient {

        private final RedissonClient redisson;

        Client(RedissonClient redisson) {
            this.redisson = redisson;
        }

        @Override
        public Hold tryLock(String key, long waitNanos) throws InterruptedException {
            RLock lock = redisson.getLock(key);
            return lock.tryLock(waitNanos, TimeUnit.NANOSECONDS) ? lock::unlock : null;
        }

        @Override
        public void close() {
            redisson.shutdown();
        }
    }
}
