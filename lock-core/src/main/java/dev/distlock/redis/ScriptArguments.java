package dev.distlock.redis;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The keys and arguments each of the lock's scripts ({@link LockScripts}) takes, as the bytes sent to Redis: the
 * lock's keys from {@link RedisKeys}, followed by the arguments in the order the script reads them. Shared by the
 * blocking and the asynchronous store, so both send the same.
 */
final class ScriptArguments {

    private static final byte[] YES = bytes("1");
    private static final byte[] NO = bytes("0");

    private final RedisKeys keys;
    private final byte[] fenceRetentionMillis;
    private final byte[] inboxChannel;

    ScriptArguments(RedisKeys keys, long fenceRetentionMillis, String inboxChannel) {
        this.keys = keys;
        this.fenceRetentionMillis = bytes(Long.toString(fenceRetentionMillis));
        this.inboxChannel = bytes(inboxChannel);
    }

    /** The key whose value is the owner token of lock {@code name}. */
    byte[] lock(String name) {
        return bytes(keys.lock(name));
    }

    /** The keys and arguments of the acquire script. */
    byte[][] acquire(String name, String token, long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return lockKeys(name, bytes(token), bytes(Long.toString(leaseMillis)), fenceRetentionMillis,
                queue ? YES : NO, bytes(Long.toString(waiterTimeoutMillis)), inboxChannel);
    }

    /** The keys and arguments of the script that leaves the queue. */
    byte[][] leave(String name, String token, long leaseMillis) {
        return lockKeys(name, bytes(token), bytes(Long.toString(leaseMillis)), fenceRetentionMillis);
    }

    /** The keys and arguments of the release and abandon scripts. */
    byte[][] release(String name, String token) {
        return keysAndArgs(name, true, bytes(token), fenceRetentionMillis);
    }

    /** The key and arguments of the script that sets a lease ({@code onlyLonger}: a renewal). */
    byte[][] lease(String name, String token, long leaseMillis, boolean onlyLonger) {
        return new byte[][] {lock(name), bytes(token), bytes(Long.toString(leaseMillis)), onlyLonger ? YES : NO};
    }

    /** The key and argument of the script that reads a hold's lease. */
    byte[][] remaining(String name, String token) {
        return new byte[][] {lock(name), bytes(token)};
    }

    /** The keys and arguments of the script that raises the fence to {@code fencingToken}. */
    byte[][] raise(String name, String token, long fencingToken) {
        String lock = keys.lock(name);
        return new byte[][] {bytes(lock), bytes(keys.fence(lock)), bytes(token), bytes(Long.toString(fencingToken)),
            fenceRetentionMillis};
    }

    /** The keys of the script that inspects lock {@code name}. */
    byte[][] inspect(String name) {
        return lockKeys(name);
    }

    /** The key and arguments of the script that announces registry {@code instance}. */
    byte[][] announce(String instance, Map<String, String> description, long ttlMillis) {
        List<byte[]> keysAndArgs = new ArrayList<>();
        keysAndArgs.add(announcement(instance));
        keysAndArgs.add(bytes(Long.toString(ttlMillis)));
        description.forEach((field, value) -> {
            keysAndArgs.add(bytes(field));
            keysAndArgs.add(bytes(value));
        });
        return keysAndArgs.toArray(byte[][]::new);
    }

    /** The key of the script that reads registry {@code instance}'s announcement. */
    byte[] announcement(String instance) {
        return bytes(keys.instance(instance));
    }

    /** The lock, fence, queue and waiters keys of lock {@code name}, followed by {@code args}. */
    private byte[][] lockKeys(String name, byte[]... args) {
        return keysAndArgs(name, false, args);
    }

    private byte[][] keysAndArgs(String name, boolean withReleased, byte[]... args) {
        String lock = keys.lock(name);
        int keyCount = withReleased ? 5 : 4;
        byte[][] keysAndArgs = new byte[keyCount + args.length][];
        keysAndArgs[0] = bytes(lock);
        keysAndArgs[1] = bytes(keys.fence(lock));
        keysAndArgs[2] = bytes(keys.queue(lock));
        keysAndArgs[3] = bytes(keys.waiters(lock));
        if (withReleased) {
            keysAndArgs[4] = bytes(keys.released(lock));
        }
        System.arraycopy(args, 0, keysAndArgs, keyCount, args.length);
        return keysAndArgs;
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
