package dev.distlock.redis;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.LongConsumer;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The lock's atomic operations as Lua scripts on one Redis (standalone, Sentinel or one cluster slot). */
final class RedisLockStore implements LockStore {

    private final RedisConnectionFactory redis;
    private final RedisKeys keys;
    private final GrantInbox inbox;
    private final byte[] fenceRetentionMillis;
    private final byte[] queueRetentionMillis;
    private final byte[] inboxChannel;
    private final Map<Queue, byte[]> queueModes = new EnumMap<>(Queue.class);

    RedisLockStore(RedisConnectionFactory redis, RedisKeys keys, GrantInbox inbox, long fenceRetentionMillis,
            long queueRetentionMillis) {
        this.redis = redis;
        this.keys = keys;
        this.inbox = inbox;
        this.fenceRetentionMillis = bytes(Long.toString(fenceRetentionMillis));
        this.queueRetentionMillis = bytes(Long.toString(queueRetentionMillis));
        this.inboxChannel = bytes(inbox.channel());
        for (Queue queue : Queue.values()) {
            queueModes.put(queue, bytes(queue.name().toLowerCase(Locale.ROOT)));
        }
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, Queue queue) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.ACQUIRE.run(redis, 3, bytes(lock), bytes(keys.fence(lock)),
                bytes(keys.queue(lock)), bytes(token), bytes(Long.toString(leaseMillis)), fenceRetentionMillis,
                queueModes.get(queue), queueRetentionMillis, inboxChannel));
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        String lock = keys.lock(name);
        return acquireResult(LockScripts.LEAVE.run(redis, 2, bytes(lock), bytes(keys.queue(lock)), bytes(token),
                bytes(token + ' ' + leaseMillis + ' ' + inbox.channel())));
    }

    @Override
    public boolean release(String name, String token) {
        String lock = keys.lock(name);
        Long released = LockScripts.RELEASE.run(redis, 3, bytes(lock), bytes(keys.queue(lock)),
                bytes(keys.fence(lock)), bytes(token), fenceRetentionMillis);
        return released == 1L;
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        Long extended = LockScripts.EXTEND.run(redis, 1, bytes(keys.lock(name)), bytes(token),
                bytes(Long.toString(leaseMillis)));
        return extended == 1L;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        long pttl = LockScripts.REMAINING.<Long>run(redis, 1, bytes(keys.lock(name)), bytes(token));
        return pttl == -1 ? Long.MAX_VALUE : pttl;
    }

    @Override
    public boolean isLocked(String name) {
        try (RedisConnection connection = redis.getConnection()) {
            return Boolean.TRUE.equals(connection.keyCommands().exists(bytes(keys.lock(name))));
        }
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
    private static AcquireResult acquireResult(List<?> reply) {
        return ((Number) reply.get(0)).intValue() == 1
                ? AcquireResult.acquired(((Number) reply.get(1)).longValue())
                : AcquireResult.heldByOther(-1);
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
