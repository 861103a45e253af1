package dev.distlock.redis;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.util.List;
import java.util.Locale;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** The lock's atomic operations as Lua scripts on one Redis (standalone, Sentinel or one cluster slot). */
final class RedisLockStore implements LockStore {

    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final GrantChannels grants;
    private final String fenceRetentionMillis;
    private final String queueRetentionMillis;

    RedisLockStore(StringRedisTemplate redis, RedisKeys keys, GrantChannels grants, long fenceRetentionMillis,
            long queueRetentionMillis) {
        this.redis = redis;
        this.keys = keys;
        this.grants = grants;
        this.fenceRetentionMillis = Long.toString(fenceRetentionMillis);
        this.queueRetentionMillis = Long.toString(queueRetentionMillis);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, Queue queue) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.ACQUIRE, List.of(lock, keys.fence(lock), keys.queue(lock)), token,
                Long.toString(leaseMillis), fenceRetentionMillis, queue.name().toLowerCase(Locale.ROOT),
                queueRetentionMillis);
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.LEAVE, List.of(lock, keys.queue(lock)), token, token + ' ' + leaseMillis);
    }

    @Override
    public boolean release(String name, String token) {
        String lock = keys.lock(name);
        return redis.execute(LockScripts.RELEASE, List.of(lock, keys.queue(lock), keys.fence(lock)), token,
                keys.channel(lock), fenceRetentionMillis) == 1L;
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
    public boolean listening(String name) {
        return grants.listening(keys.channel(keys.lock(name)));
    }

    @Override
    public Subscription onGrant(String name, GrantListener listener) {
        return grants.subscribe(keys.channel(keys.lock(name)), listener);
    }

    @Override
    public void close() {
        grants.close();
    }

    /** Reads a {@code {1, fencing token}} or {@code {0, -1}} reply. */
    @SuppressWarnings("rawtypes")
    private AcquireResult acquireResult(RedisScript<List> script, List<String> scriptKeys, String... args) {
        List<?> reply = redis.execute(script, scriptKeys, (Object[]) args);
        return ((Number) reply.get(0)).intValue() == 1
                ? AcquireResult.acquired(((Number) reply.get(1)).longValue())
                : AcquireResult.heldByOther(-1);
    }
}
