package dev.distlock.redis;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.util.List;
import java.util.Locale;
import java.util.function.LongConsumer;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/** The lock's atomic operations as Lua scripts on one Redis (standalone, Sentinel or one cluster slot). */
final class RedisLockStore implements LockStore {

    private final StringRedisTemplate redis;
    private final RedisKeys keys;
    private final GrantInbox inbox;
    private final String fenceRetentionMillis;
    private final String queueRetentionMillis;

    RedisLockStore(StringRedisTemplate redis, RedisKeys keys, GrantInbox inbox, long fenceRetentionMillis,
            long queueRetentionMillis) {
        this.redis = redis;
        this.keys = keys;
        this.inbox = inbox;
        this.fenceRetentionMillis = Long.toString(fenceRetentionMillis);
        this.queueRetentionMillis = Long.toString(queueRetentionMillis);
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, Queue queue) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.ACQUIRE, List.of(lock, keys.fence(lock), keys.queue(lock)), token,
                Long.toString(leaseMillis), fenceRetentionMillis, queue.name().toLowerCase(Locale.ROOT),
                queueRetentionMillis, inbox.channel());
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.LEAVE, List.of(lock, keys.queue(lock)), token, token + ' ' + leaseMillis + ' ' + inbox.channel());
    }

    @Override
    public boolean release(String name, String token) {
        String lock = keys.lock(name);
        return redis.execute(LockScripts.RELEASE, List.of(lock, keys.queue(lock), keys.fence(lock)), token,
                fenceRetentionMillis) == 1L;
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
        return inbox.listening();
    }

    @Override
    public Subscription onGrant(String name, String token, LongConsumer onGrant) {
        return inbox.await(token, onGrant);
    }

    @Override
    public void close() {
        inbox.close();
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
