package dev.distlock.samples.counter;

import dev.distlock.core.FencedLock;
import dev.distlock.redis.RedisLockRegistry;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Several instances (each with its own Redis connections and lock registry, as separate processes would
 * have) increment one Redis counter with a non-atomic GET then SET: first under the lock, then without.
 * The first total is exact; the second loses updates.
 *
 * <p>Redis: {@code REDIS_URL} (default {@code redis://localhost:6379}).
 */
public final class CounterDemo {

    private static final int INSTANCES = 4;
    private static final int THREADS_PER_INSTANCE = 4;
    private static final int INCREMENTS_PER_THREAD = 250;
    private static final String COUNTER_KEY = "distlock-demo:counter";

    private CounterDemo() {
    }

    public static void main(String[] args) throws Exception {
        URI redis = URI.create(System.getenv().getOrDefault("REDIS_URL", "redis://localhost:6379"));
        List<LettuceConnectionFactory> connections = new ArrayList<>();
        try {
            for (int i = 0; i < INSTANCES; i++) {
                connections.add(connect(redis));
            }
            if (!answers(connections.get(0))) {
                System.err.printf("No Redis answers at %s. Start one with `redis-server` (or set REDIS_URL) "
                        + "and run the demo again.%n", redis);
                System.exit(2);
            }
            long expected = (long) INSTANCES * THREADS_PER_INSTANCE * INCREMENTS_PER_THREAD;
            System.out.printf("distlock counter demo on %s: %d instances x %d threads x %d increments, "
                    + "each a GET then a SET of one key%n%n", redis, INSTANCES, THREADS_PER_INSTANCE,
                    INCREMENTS_PER_THREAD);
            Run locked = run(connections, true);
            Run unlocked = run(connections, false);
            System.out.printf("%nwith the lock:    counter = %d of %d expected (%s) in %.1fs, highest fencing token %d%n",
                    locked.counter, expected, locked.counter == expected ? "exact" : "WRONG", locked.seconds,
                    locked.highestFence);
            System.out.printf("without the lock: counter = %d of %d expected (%d updates lost) in %.1fs%n",
                    unlocked.counter, expected, expected - unlocked.counter, unlocked.seconds);
            if (locked.counter != expected) {
                System.exit(1);
            }
        } finally {
            connections.forEach(LettuceConnectionFactory::destroy);
        }
    }

    private record Run(long counter, double seconds, long highestFence) {
    }

    private static Run run(List<LettuceConnectionFactory> connections, boolean withLock) throws Exception {
        StringRedisTemplate admin = new StringRedisTemplate(connections.get(0));
        admin.opsForValue().set(COUNTER_KEY, "0");
        List<RedisLockRegistry> registries = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(INSTANCES * THREADS_PER_INSTANCE);
        AtomicLong done = new AtomicLong();
        LongAccumulator highestFence = new LongAccumulator(Math::max, 0);
        long start = System.nanoTime();
        try {
            List<Future<?>> work = new ArrayList<>();
            for (LettuceConnectionFactory connection : connections) {
                RedisLockRegistry registry = RedisLockRegistry.builder(connection).keyPrefix("distlock-demo").build();
                registries.add(registry);
                StringRedisTemplate redis = new StringRedisTemplate(connection);
                for (int t = 0; t < THREADS_PER_INSTANCE; t++) {
                    work.add(threads.submit(() -> {
                        FencedLock lock = registry.obtain("counter");
                        for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
                            if (withLock) {
                                lock.lock();
                            }
                            try {
                                long value = Long.parseLong(redis.opsForValue().get(COUNTER_KEY));
                                redis.opsForValue().set(COUNTER_KEY, Long.toString(value + 1));
                                if (withLock) {
                                    highestFence.accumulate(lock.fencingToken());
                                }
                            } finally {
                                if (withLock) {
                                    lock.unlock();
                                }
                            }
                            done.incrementAndGet();
                        }
                        return null;
                    }));
                }
            }
            showProgress(withLock ? "with the lock" : "without the lock", work, done);
        } finally {
            threads.shutdownNow();
            registries.forEach(RedisLockRegistry::close);
        }
        long counter = Long.parseLong(admin.opsForValue().get(COUNTER_KEY));
        admin.delete(COUNTER_KEY);
        return new Run(counter, (System.nanoTime() - start) / 1e9, highestFence.get());
    }

    private static void showProgress(String label, List<Future<?>> work, AtomicLong done) throws Exception {
        long total = (long) INSTANCES * THREADS_PER_INSTANCE * INCREMENTS_PER_THREAD;
        for (Future<?> future : work) {
            while (true) {
                try {
                    future.get(250, TimeUnit.MILLISECONDS);
                    break;
                } catch (java.util.concurrent.TimeoutException stillRunning) {
                    System.out.printf("\r%-17s %5d / %d increments", label, done.get(), total);
                }
            }
        }
        System.out.printf("\r%-17s %5d / %d increments%n", label, done.get(), total);
    }

    private static LettuceConnectionFactory connect(URI redis) {
        RedisStandaloneConfiguration server = new RedisStandaloneConfiguration(redis.getHost(),
                redis.getPort() > 0 ? redis.getPort() : 6379);
        LettuceConnectionFactory factory = new LettuceConnectionFactory(server,
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(5)).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    private static boolean answers(LettuceConnectionFactory factory) {
        try (var connection = factory.getConnection()) {
            return "PONG".equals(connection.ping());
        } catch (RuntimeException unreachable) {
            return false;
        }
    }
}
