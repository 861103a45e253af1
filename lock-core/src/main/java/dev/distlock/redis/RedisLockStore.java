package dev.distlock.redis;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The lock's atomic operations as Lua scripts on one Redis (standalone, Sentinel or one cluster slot). */
final class RedisLockStore implements LockStore {

    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final ReleaseChannels releases;
    private final String fenceRetentionMillis;
    private final String waiterMarkMillis;

    RedisLockStore(StringRedisTemplate redis, RedisKeys keys, ReleaseChannels releases, long fenceRetentionMillis,
            long waiterMarkMillis) {
        this.redis = redis;
        this.keys = keys;
        this.releases = releases;
        this.fenceRetentionMillis = Long.toString(fenceRetentionMillis);
        this.waiterMarkMillis = Long.toString(waiterMarkMillis);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean waiting) {
        String lock = keys.lock(name);
        List<?> reply = redis.execute(LockScripts.ACQUIRE, List.of(lock, keys.fence(lock), keys.waiters(lock)),
                token, Long.toString(leaseMillis), fenceRetentionMillis, waiting ? waiterMarkMillis : "0");
        long value = ((Number) reply.get(1)).longValue();
        return ((Number) reply.get(0)).intValue() == 1 ? AcquireResult.acquired(value) : AcquireResult.heldByOther(value);
    }

    @Override
    public boolean release(String name, String token) {
        String lock = keys.lock(name);
        return redis.execute(LockScripts.RELEASE, List.of(lock, keys.waiters(lock)), token, keys.channel(lock)) == 1L;
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return redis.execute(LockScripts.EXTEND, List.of(keys.lock(name)), token, Long.toString(leaseMillis)) == 1L;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        long pttl = redis.execute(LockScripts.REMAINING, List.of(keys.lock(name)), token);
        return pttl == -1 ? Long.MAX_VALUE : pttl;
    }

    @Override
    public boolean isLocked(String name) {
        return Boolean.TRUE.equals(redis.hasKey(keys.lock(name)));
    }

    @Override
    public Subscription onRelease(String name, Runnable onRelease) {
        return releases.subscribe(keys.channel(keys.lock(name)), onRelease);
    }

    @Override
    public void close() {
        releases.close();
    }
}
