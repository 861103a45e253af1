package dev.distlock.redis;

import dev.distlock.core.support.LockNames;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Maps lock names to Redis keys. Every key of one lock shares the hash tag {@code {name}}, so all of them
 * live in one Redis Cluster slot: the lock's own and its queue's. Inside the tag, {@code %} and {@code }} are percent-encoded: a name may
 * contain any character and the tag still ends where it should and never comes out empty.
 */
final class RedisKeys {

    private static final byte[] QUEUE = ":queue".getBytes(StandardCharsets.UTF_8);
    private static final byte[] WAITERS = ":waiters".getBytes(StandardCharsets.UTF_8);

    private final String prefix;

    RedisKeys(String prefix) {
        String problem = prefixProblem(prefix);
        if (problem != null) {
            throw new IllegalArgumentException("The key prefix " + problem + ", got '" + prefix + "'");
        }
        this.prefix = prefix.isEmpty() ? "" : prefix + ':';
    }

    /** What is wrong with a key prefix ("must ..."), or {@code null} if it can prefix lock keys. */
    static String prefixProblem(String prefix) {
        if (prefix == null) {
            return "must not be null (empty for none)";
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            return "must not contain '{' or '}' (they would change the Redis Cluster hash tag of the lock keys)";
        }
        int unpaired = LockNames.unpairedSurrogate(prefix);
        if (unpaired >= 0) {
            return "must be valid UTF-16, found an unpaired surrogate at index " + unpaired + " (Redis would get "
                    + "'?' in its place, so such prefixes would share keys)";
        }
        return null;
    }

    /** The key of the lock: its owner token, fencing token and last releases (see {@code common.lua}). */
    String lock(String name) {
        if (name.indexOf('%') < 0 && name.indexOf('}') < 0) {
            return prefix + '{' + name + '}'; // nothing to encode: the usual case, in one string
        }
        StringBuilder key = new StringBuilder(prefix.length() + name.length() + 2).append(prefix).append('{');
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            switch (c) {
                case '%' -> key.append("%25");
                case '}' -> key.append("%7D");
                default -> key.append(c);
            }
        }
        return key.append('}').toString();
    }

    /**
     * The keys of lock {@code name} as the bytes sent, into {@code keys[0..2]}, the name encoded once for all three:
     * its own ({@link #lock}); its queue's, {@code <lock>:queue}, the list of waiter tokens, first come first served,
     * that releases hand the lock to; and its waiters', {@code <lock>:waiters}, the hash of the queued waiters'
     * entries (deadline, lease, timeout and channel per token).
     */
    void encodeWithQueue(String name, byte[][] keys) {
        byte[] lock = lock(name).getBytes(StandardCharsets.UTF_8);
        keys[0] = lock;
        keys[1] = suffixed(lock, QUEUE);
        keys[2] = suffixed(lock, WAITERS);
    }

    private static byte[] suffixed(byte[] key, byte[] suffix) {
        byte[] suffixed = Arrays.copyOf(key, key.length + suffix.length);
        System.arraycopy(suffix, 0, suffixed, key.length, suffix.length);
        return suffixed;
    }

    /** Where registry {@code instance} announces who it is (application, host, pid, start). */
    String instance(String instance) {
        return prefix + "instance:" + instance;
    }

    /** The pub/sub channel where a registry hears of locks handed to its waiters. */
    String inbox(String registryId) {
        return prefix + "granted:" + registryId;
    }
}
