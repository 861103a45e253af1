package dev.distlock.benchmarks.permits;

import dev.distlock.benchmarks.contenders.LibraryVersion;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.redisson.Redisson;
import org.redisson.api.RPermitExpirableSemaphore;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The semaphores compared, each client on a connection of its own (a process each). */
final class PermitClients {

    /** How long a taking waits for a permit; far longer than any wait of the comparison. */
    static final Duration WAIT = Duration.ofSeconds(10);
    /** The lease of a taken permit: neither library renews or needs to within a hold of a millisecond. */
    static final Duration LEASE = Duration.ofSeconds(30);

    private PermitClients() {
    }

    /** One client of a semaphore: takes a permit, gives it back. */
    interface Client extends AutoCloseable {

        /** A permit, or {@code null} if none came within {@link #WAIT}. */
        Object take() throws Exception;

        void giveBack(Object permit) throws Exception;

        @Override
        void close();
    }

    /** The contenders by name: {@code distlock} and {@code redisson}. */
    static String description(String contender) {
        return switch (contender) {
            case "distlock" -> "distlock `LeasedSemaphore.tryAcquire(wait)` (renewed lease), `DetachedLock.unlock()`";
            case "redisson" -> "Redisson " + LibraryVersion.of(Redisson.class)
                    + " `RPermitExpirableSemaphore.tryAcquire(wait, lease, unit)`, `release(id)`";
            default -> throw new IllegalArgumentException("no permits contender " + contender);
        };
    }

    static Client of(String contender, RedisAddress redis, String name, int permits) {
        return "distlock".equals(contender) ? distlock(redis, name, permits) : redisson(redis, name, permits);
    }

    private static Client distlock(RedisAddress redis, String name, int permits) {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-permits").build();
        LeasedSemaphore semaphore = registry.semaphore(name, permits);
        return new Client() {
            @Override
            public Object take() throws InterruptedException {
                return semaphore.tryAcquire(WAIT);
            }

            @Override
            public void giveBack(Object permit) {
                ((DetachedLock) permit).unlock();
            }

            @Override
            public void close() {
                registry.close();
                factory.destroy();
            }
        };
    }

    private static Client redisson(RedisAddress redis, String name, int permits) {
        Config config = new Config();
        config.useSingleServer().setAddress(redis.uri());
        RedissonClient client = Redisson.create(config);
        RPermitExpirableSemaphore semaphore = client.getPermitExpirableSemaphore("bench-permits-r:" + name);
        semaphore.trySetPermits(permits);
        return new Client() {
            @Override
            public Object take() throws InterruptedException {
                return semaphore.tryAcquire(WAIT.toMillis(), LEASE.toMillis(), TimeUnit.MILLISECONDS);
            }

            @Override
            public void giveBack(Object permit) {
                semaphore.release((String) permit);
            }

            @Override
            public void close() {
                client.shutdown();
            }
        };
    }
}
