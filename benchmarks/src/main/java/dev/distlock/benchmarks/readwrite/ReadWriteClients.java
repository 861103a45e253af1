package dev.distlock.benchmarks.readwrite;

import dev.distlock.benchmarks.contenders.LibraryVersion;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RLock;
import org.redisson.api.RReadWriteLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The read-write locks compared, each client on a connection of its own (a process each), as the permits
 * comparison's: what one process sees of another is then only what Redis tells it, which is what a read-write lock
 * across processes has to get right.
 */
final class ReadWriteClients {

    /** How long an acquisition waits; far longer than any wait of the comparison, so a miss is a failure. */
    static final Duration WAIT = Duration.ofSeconds(10);

    private ReadWriteClients() {
    }

    /** One client of a read-write lock: takes the read or the write side, gives it back, on the same thread. */
    interface Client extends AutoCloseable {

        /** Whether the side was taken within {@link #WAIT}. */
        boolean lock(boolean write) throws InterruptedException;

        void unlock(boolean write);

        @Override
        void close();
    }

    /** The contenders by name: {@code distlock} and {@code redisson}. */
    static String description(String contender) {
        return switch (contender) {
            case "distlock" -> "distlock `readWriteLock(name)`: `readLock()` / `writeLock()` `.tryLock(wait)`, "
                    + "`unlock()` (renewed lease)";
            case "redisson" -> "Redisson " + LibraryVersion.of(Redisson.class)
                    + " `RReadWriteLock`: `readLock()` / `writeLock()` `.tryLock(wait, unit)`, `unlock()` (watchdog)";
            default -> throw new IllegalArgumentException("no read-write contender " + contender);
        };
    }

    static Client of(String contender, RedisAddress redis, String name) {
        return "distlock".equals(contender) ? distlock(redis, name) : redisson(redis, name);
    }

    /**
     * One side of a lock of a registry that every client shares, as threads of one process would: the read side of
     * a read-write lock, or an exclusive lock. The registry's owner closes it; {@code write} only tells the harness
     * which side it is.
     */
    static Client on(FencedLock lock) {
        return new Client() {
            @Override
            public boolean lock(boolean write) throws InterruptedException {
                return lock.tryLock(WAIT);
            }

            @Override
            public void unlock(boolean write) {
                lock.unlock();
            }

            @Override
            public void close() {
                // the registry is shared: its owner closes it
            }
        };
    }

    private static Client distlock(RedisAddress redis, String name) {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-readwrite").build();
        FencedReadWriteLock lock = registry.readWriteLock(name);
        return new Client() {
            @Override
            public boolean lock(boolean write) throws InterruptedException {
                return side(write).tryLock(WAIT);
            }

            @Override
            public void unlock(boolean write) {
                side(write).unlock();
            }

            private FencedLock side(boolean write) {
                return write ? lock.writeLock() : lock.readLock();
            }

            @Override
            public void close() {
                registry.close();
                factory.destroy();
            }
        };
    }

    private static Client redisson(RedisAddress redis, String name) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        RReadWriteLock lock = client.getReadWriteLock("bench-readwrite-r:" + name);
        return new Client() {
            @Override
            public boolean lock(boolean write) throws InterruptedException {
                return side(write).tryLock(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            }

            @Override
            public void unlock(boolean write) {
                side(write).unlock();
            }

            private RLock side(boolean write) {
                return write ? lock.writeLock() : lock.readLock();
            }

            @Override
            public void close() {
                client.shutdown();
            }
        };
    }
}
