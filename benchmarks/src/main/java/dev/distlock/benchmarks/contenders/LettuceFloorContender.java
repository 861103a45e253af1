package dev.distlock.benchmarks.contenders;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The physical floor of a correct lock, written directly on Lettuce: {@code SET key token NX PX lease} to
 * acquire and one compare-and-delete script to release, two round trips. No watchdog, no fencing, no
 * notification: a waiter polls, backing off from 50 us doubling up to 1 ms. One connection per client.
 */
public final class LettuceFloorContender implements Contender {

    private static final long LEASE_MILLIS = 30_000;
    private static final long FIRST_BACKOFF_NANOS = TimeUnit.MICROSECONDS.toNanos(50);
    private static final long MAX_BACKOFF_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0""";

    private final RedisAddress redis;

    public LettuceFloorContender(RedisAddress redis) {
        this.redis = redis;
    }

    @Override
    public String name() {
        return "floor";
    }

    @Override
    public String description() {
        return "Lettuce " + LibraryVersion.of(RedisClient.class) + " directly: SET NX PX, compare-and-delete EVALSHA, "
                + "polling 50 us..1 ms (no watchdog, no fencing)";
    }

    @Override
    public LockClient newClient() {
        RedisClient client = RedisClient.create(RedisURI.create(redis.host(), redis.port()));
        return new Client(client, client.connect());
    }

    private static final class Client implements LockClient {

        private final RedisClient client;
        private final StatefulRedisConnection<String, String> connection;
        private final RedisCommands<String, String> redis;
        private final String releaseSha;
        private final String tokenPrefix = UUID.randomUUID() + ":";
        private final AtomicLong tokens = new AtomicLong();

        Client(RedisClient client, StatefulRedisConnection<String, String> connection) {
            this.client = client;
            this.connection = connection;
            this.redis = connection.sync();
            this.releaseSha = redis.scriptLoad(RELEASE);
        }

        @Override
        public Hold tryLock(String key, long waitNanos) throws InterruptedException {
            String token = tokenPrefix + tokens.incrementAndGet();
            SetArgs args = SetArgs.Builder.nx().px(LEASE_MILLIS);
            long deadline = System.nanoTime() + waitNanos;
            long backoff = FIRST_BACKOFF_NANOS;
            while (redis.set(key, token, args) == null) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    return null;
                }
                LockSupport.parkNanos(Math.min(backoff, remaining));
                if (Thread.interrupted()) {
                    throw new InterruptedException("interrupted while waiting for " + key);
                }
                backoff = Math.min(2 * backoff, MAX_BACKOFF_NANOS);
            }
            return () -> redis.evalsha(releaseSha, ScriptOutputType.INTEGER, new String[] {key}, token);
        }

        @Override
        public void close() {
            connection.close();
            client.shutdown();
        }
    }
}
