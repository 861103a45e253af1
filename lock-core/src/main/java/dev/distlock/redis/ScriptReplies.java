package dev.distlock.redis;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads the replies of the lock's scripts ({@link LockScripts}) into the store's terms, for the blocking and the
 * asynchronous store alike; one per store, because a refused hand-off notice (or queue listing) is reported once per store.
 */
final class ScriptReplies {

    /** The store's own category: where the refused notice has always been logged, and logging is configured. */
    private static final Logger log = LoggerFactory.getLogger(RedisLockStore.class);

    private final RedisKeys keys;
    private final AtomicBoolean publishRefusalReported = new AtomicBoolean();
    private final AtomicBoolean queueRefusalReported = new AtomicBoolean();

    ScriptReplies(RedisKeys keys) {
        this.keys = keys;
    }

    /**
     * Reads a release's {@code {1}}, {@code {1, error}} or {@code {0}}. A refused hand-off notice does not
     * fail the release (the waiter finds the hand-off at its next poll); it is logged once.
     */
    boolean released(List<?> reply) {
        if (reply.size() > 1 && publishRefusalReported.compareAndSet(false, true)) {
            Object error = reply.get(1);
            log.warn("Redis refused to publish a hand-off notice: {}. Waiters still get the lock at their next poll "
                    + "(every max-poll-interval), but hand-offs are slower; allow PUBLISH on the channels '{}' "
                    + "for this Redis user. (Reported once.)",
                    error instanceof byte[] message ? text(message) : error, keys.inbox("*"));
        }
        return ((Number) reply.get(0)).intValue() == 1;
    }

    /** Reads a {@code {1, fencing token, server ms}} or {@code {0, holder's lease, server ms}} reply. */
    static AcquireResult acquireResult(List<?> reply) {
        long value = ((Number) reply.get(1)).longValue();
        long serverMillis = ((Number) reply.get(2)).longValue();
        return ((Number) reply.get(0)).intValue() == 1
                ? AcquireResult.acquired(value, serverMillis)
                : AcquireResult.busy(leaseLeft(value), serverMillis);
    }

    /** Reads a hand-off in one call: {@code {release's reply, the try's reply}}. */
    PassOn passedOn(List<?> reply) {
        return new PassOn(released((List<?>) reply.get(0)), acquireResult((List<?>) reply.get(1)));
    }

    /** Reads a batch renewal's reply: 1 or 0 for each hold, in order. */
    static boolean[] owned(List<?> reply) {
        boolean[] owned = new boolean[reply.size()];
        for (int i = 0; i < owned.length; i++) {
            owned[i] = ((Number) reply.get(i)).intValue() == 1;
        }
        return owned;
    }

    /**
     * A {@code PTTL} reply in the store's terms: -1 (a key without expiry) never expires; -2 (no key) stays
     * negative.
     */
    static long leaseLeft(long pttl) {
        return pttl == -1 ? LockStore.NEVER_EXPIRES : pttl;
    }

    /**
     * Reads an inspection's {@code {owner or "", fencing token, lease PTTL, waiters, first waiters' tokens, holds,
     * permits held, permits}}, or
     * {@code {..., error}} if Redis refused to list the queue: the waiters are still counted, but none is listed; that
     * is logged once.
     */
    LockSnapshot snapshot(List<?> reply) {
        if (reply.size() > 8 && queueRefusalReported.compareAndSet(false, true)) {
            Object error = reply.get(8);
            log.warn("Redis refused to list a lock's queue: {}. Inspecting a lock (the distlocks endpoint, "
                    + "LockRegistry.inspect) counts its waiters but names none; allow LRANGE (+lrange) for this "
                    + "Redis user. (Reported once.)", error instanceof byte[] message ? text(message) : error);
        }
        String owner = text(reply.get(0));
        List<String> waiterTokens = ((List<?>) reply.get(4)).stream().map(ScriptReplies::text).toList();
        return new LockSnapshot(owner.isEmpty() ? null : owner, ((Number) reply.get(1)).longValue(),
                owner.isEmpty() ? 0 : leaseLeft(((Number) reply.get(2)).longValue()),
                ((Number) reply.get(3)).intValue(), waiterTokens, ((Number) reply.get(5)).intValue(),
                ((Number) reply.get(6)).intValue(), ((Number) reply.get(7)).intValue());
    }

    /** Reads an announcement's fields and values, in turn. */
    static Map<String, String> fields(List<?> reply) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i + 1 < reply.size(); i += 2) {
            fields.put(text(reply.get(i)), text(reply.get(i + 1)));
        }
        return fields;
    }

    private static String text(Object bulk) {
        return new String((byte[]) bulk, StandardCharsets.UTF_8);
    }
}
