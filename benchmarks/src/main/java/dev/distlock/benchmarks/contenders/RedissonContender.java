package dev.distlock.benchmarks.contenders;

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
        RedissonClient redisson = Redisson.create(config);
        return new LockObjectClient<RLock>(redisson::getLock, lock -> { }, redisson::shutdown);
    }
}
