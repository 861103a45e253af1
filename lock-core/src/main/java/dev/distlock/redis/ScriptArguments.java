package dev.distlock.redis;

import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.Renewal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The key and arguments each of the lock's scripts ({@link LockScripts}) takes, as the bytes sent to Redis: the
 * lock's key from {@link RedisKeys} (and its queue's two for the scripts that may touch the queue), followed by only
 * the arguments the script reads, in its order. Shared by the
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
        this.fenceRetentionMillis = number(fenceRetentionMillis);
        this.inboxChannel = bytes(inboxChannel);
    }

    /** The key whose value is the owner token of lock {@code name}. */
    byte[] lock(String name) {
        return bytes(keys.lock(name));
    }

    /** The keys and arguments of the acquire script: the waiter's timeout and channel only if it queues. */
    byte[][] acquire(String name, String token, long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return queue
                ? withQueue(name, bytes(token), number(leaseMillis), number(waiterTimeoutMillis), inboxChannel)
                : withQueue(name, bytes(token), number(leaseMillis));
    }

    /** The keys and arguments of the script that takes permits: the waiter's timeout and channel only if it queues. */
    byte[][] takePermits(String name, String token, int permits, int limit, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return queue
                ? withQueue(name, bytes(token), number(leaseMillis), number(permits), number(limit),
                        number(waiterTimeoutMillis), inboxChannel)
                : withQueue(name, bytes(token), number(leaseMillis), number(permits), number(limit));
    }

    /** The keys and arguments of the script that keeps {@code permits} of a holder's permits. */
    byte[][] keepPermits(String name, String token, int permits) {
        return withQueue(name, bytes(token), number(permits));
    }

    /** The keys and arguments of the script that leaves the queue. */
    byte[][] leave(String name, String token, long leaseMillis) {
        return withQueue(name, bytes(token), number(leaseMillis));
    }

    /** The keys and arguments of the script that releases a hold and tries for the next token (see acquire). */
    byte[][] passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return queue
                ? withQueue(name, bytes(token), fenceRetentionMillis, number(fencingToken), bytes(next),
                        number(leaseMillis), number(waiterTimeoutMillis), inboxChannel)
                : withQueue(name, bytes(token), fenceRetentionMillis, number(fencingToken), bytes(next),
                        number(leaseMillis));
    }

    /** The keys and arguments of the release script, with the hold's fencing token (a replay finds its release by it). */
    byte[][] release(String name, String token, long fencingToken) {
        return withQueue(name, bytes(token), fenceRetentionMillis, number(fencingToken));
    }

    /** The keys and arguments of the abandon script (an acquisition in doubt knows no fencing token). */
    byte[][] abandon(String name, String token) {
        return withQueue(name, bytes(token), fenceRetentionMillis);
    }

    /** The keys and arguments of the script that ends the hold with {@code fencingToken}, whoever owns it. */
    byte[][] forceRelease(String name, long fencingToken) {
        return withQueue(name, number(fencingToken), fenceRetentionMillis);
    }

    /** The keys of the script that inspects lock {@code name}, and how many waiters' tokens it lists at most. */
    byte[][] inspect(String name) {
        return withQueue(name, number(LockSnapshot.MAX_WAITER_TOKENS));
    }

    /** The key and arguments of the script that sets a lease ({@code onlyLonger}: a renewal). */
    byte[][] lease(String name, String token, long leaseMillis, boolean onlyLonger) {
        return new byte[][] {lock(name), bytes(token), number(leaseMillis), onlyLonger ? YES : NO};
    }

    /** The keys and arguments of the script that renews {@code renewals}: every lock's key, then the tokens and leases. */
    byte[][] renewAll(List<Renewal> renewals) {
        int count = renewals.size();
        byte[][] keysAndArgs = new byte[3 * count][];
        for (int i = 0; i < count; i++) {
            Renewal renewal = renewals.get(i);
            keysAndArgs[i] = lock(renewal.name());
            keysAndArgs[count + i] = bytes(renewal.token());
            keysAndArgs[2 * count + i] = number(renewal.leaseMillis());
        }
        return keysAndArgs;
    }

    /** The key and argument of the script that reads a hold's lease. */
    byte[][] remaining(String name, String token) {
        return new byte[][] {lock(name), bytes(token)};
    }

    /** The key and arguments of the script that raises the fence to {@code fencingToken}. */
    byte[][] raise(String name, String token, long fencingToken) {
        return new byte[][] {lock(name), bytes(token), number(fencingToken)};
    }

    /** The key and arguments of the script that announces registry {@code instance}. */
    byte[][] announce(String instance, Map<String, String> description, long ttlMillis) {
        List<byte[]> keysAndArgs = new ArrayList<>();
        keysAndArgs.add(announcement(instance));
        keysAndArgs.add(number(ttlMillis));
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

    /** The lock's key and its queue's two, then {@code args}. */
    private byte[][] withQueue(String name, byte[]... args) {
        byte[][] keysAndArgs = new byte[3 + args.length][];
        keys.encodeWithQueue(name, keysAndArgs);
        System.arraycopy(args, 0, keysAndArgs, 3, args.length);
        return keysAndArgs;
    }

    private static byte[] number(long value) {
        return bytes(Long.toString(value));
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
