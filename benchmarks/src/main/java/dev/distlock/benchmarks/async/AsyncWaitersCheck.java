package dev.distlock.benchmarks.async;

import dev.distlock.benchmarks.async.AsyncResult.Kind;
import dev.distlock.benchmarks.redis.RedisCounters;
import dev.distlock.benchmarks.redis.RedisStats;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import io.lettuce.core.RedisClient;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;

/**
 * Non-blocking callers at scale: thousands of waiters on one name (they must get the lock in arrival order with
 * the JVM's thread count flat), and hundreds of calls on distinct names at once, next to the same calls written
 * directly on Lettuce's async API (the floor: {@code SET NX PX}, then a compare-and-delete script).
 */
public final class AsyncWaitersCheck {

    /** The least wait of the annotated subscriptions on one name (see {@link #oneNameAnnotated}). */
    static final Duration MIN_ANNOTATED_WAIT = Duration.ofSeconds(10);

    private static final long WAIT_SECONDS = 120;
    private static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then
              return redis.call('DEL', KEYS[1])
            end
            return 0""";

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final RedisStats stats;

    /** @param stats the counters of the Redis server the calls go to */
    public AsyncWaitersCheck(RedisStats stats) {
        this.stats = stats;
    }

    /**
     * {@code count} {@code lockAsync()} calls on one name of {@code waiters}, made while another registry holds it;
     * each hold is released as soon as it arrives.
     */
    public AsyncResult oneName(LockRegistry holders, LockRegistry waiters, int count) throws Exception {
        FencedLock holder = holders.obtain("async-one");
        FencedLock lock = waiters.obtain("async-one");
        holder.lock();
        List<Integer> order = new CopyOnWriteArrayList<>();
        try (ThreadSampler sampler = new ThreadSampler()) {
            RedisCounters before = stats.read();
            long start = System.nanoTime();
            List<CompletableFuture<Void>> done = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                int arrival = i;
                done.add(lock.lockAsync().thenCompose(held -> {
                    order.add(arrival);
                    return held.unlockAsync();
                }).toCompletableFuture());
            }
            holder.unlock();
            await(done);
            double seconds = seconds(start);
            RedisCounters redis = stats.read().minus(before);
            return new AsyncResult(Kind.ONE_NAME, "distlock: " + String.format("%,d", count)
                    + " lockAsync() on one name", count, seconds, sampler.idle, sampler.peak(), inOrder(order, count),
                    redis);
        }
    }

    /**
     * {@code count} subscriptions at once to an annotated {@code Mono} on one name whose body takes {@code body}
     * (a non-blocking timer), made while another registry holds the name; each waits at most
     * {@code count × body × 2}, and at least {@link #MIN_ANNOTATED_WAIT}: a short run (the smoke test's 400) on a
     * loaded machine, where a 1 ms timer takes up to twice that, would otherwise time out on the timer alone.
     */
    public AsyncResult oneNameAnnotated(LockRegistry holders, LockRegistry waiters, int count, Duration body)
            throws Exception {
        Duration wait = body.multipliedBy(count * 2L);
        AnnotatedMonos service = AnnotatedMonos.proxy(waiters, body,
                wait.compareTo(MIN_ANNOTATED_WAIT) < 0 ? MIN_ANNOTATED_WAIT : wait);
        FencedLock holder = holders.obtain("async-mono");
        holder.lock();
        List<Integer> order = new CopyOnWriteArrayList<>();
        try (ThreadSampler sampler = new ThreadSampler()) {
            RedisCounters before = stats.read();
            long start = System.nanoTime();
            List<CompletableFuture<Integer>> done = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                done.add(service.oneName(i, order).toFuture());
            }
            holder.unlock();
            await(done);
            double seconds = seconds(start);
            return new AsyncResult(Kind.ONE_NAME_ANNOTATED, "distlock: " + String.format("%,d", count) + " subscriptions to a @DistributedLock "
                    + "Mono on one name, body " + body.toMillis() + " ms", count, seconds, sampler.idle,
                    sampler.peak(), inOrder(order, count), stats.read().minus(before));
        }
    }

    /**
     * The same waiters as {@link #oneName}, written the blocking way on virtual threads: {@code count} of them call
     * {@code lock()} then {@code unlock()} on one name while another registry holds it (Java 21 or later; on Java 24
     * and later a parked {@code synchronized} section no longer pins its carrier). Empty on an older Java. The
     * threads start in order, but which one reaches the registry first is the scheduler's choice, so no order is
     * judged.
     */
    public Optional<AsyncResult> oneNameOnVirtualThreads(LockRegistry holders, LockRegistry waiters, int count,
            Duration body) throws Exception {
        Optional<VirtualThreads.Builder> virtual = VirtualThreads.builder();
        if (virtual.isEmpty()) {
            return Optional.empty();
        }
        FencedLock holder = holders.obtain("async-virtual");
        FencedLock lock = waiters.obtain("async-virtual");
        holder.lock();
        try (ThreadSampler sampler = new ThreadSampler()) {
            RedisCounters before = stats.read();
            long start = System.nanoTime();
            CountDownLatch done = new CountDownLatch(count);
            AtomicInteger failed = new AtomicInteger();
            for (int i = 0; i < count; i++) {
                virtual.get().start(() -> {
                    try {
                        lock.lock();
                        try {
                            Thread.sleep(body.toMillis());
                        } finally {
                            lock.unlock();
                        }
                    } catch (RuntimeException | InterruptedException failure) {
                        failed.incrementAndGet();
                    } finally {
                        done.countDown();
                    }
                });
            }
            holder.unlock();
            if (!done.await(WAIT_SECONDS, TimeUnit.SECONDS) || failed.get() > 0) {
                throw new IllegalStateException("virtual threads: " + done.getCount() + " still waiting, "
                        + failed.get() + " failed");
            }
            double seconds = seconds(start);
            Kind kind = body.isZero() ? Kind.ONE_NAME_VIRTUAL_THREADS : Kind.ONE_NAME_VIRTUAL_THREADS_WITH_BODY;
            return Optional.of(new AsyncResult(kind, "distlock: " + String.format("%,d", count)
                    + " lock() on one name, one virtual thread each (Java " + Runtime.version().feature() + ")"
                    + (body.isZero() ? "" : ", body " + body.toMillis() + " ms (sleep)"), count, seconds,
                    sampler.idle, sampler.peak(), null, stats.read().minus(before)));
        }
    }

    /** {@code count} {@code tryLockAsync(0)} + {@code unlockAsync()} at once, on as many names, {@code rounds} times. */
    public AsyncResult distinctNames(LockRegistry registry, int count, int rounds) throws Exception {
        return distinct(Kind.DISTINCT, "distlock", count, rounds, i -> {
            FencedLock lock = registry.obtain("async-distinct:" + i);
            return lock.tryLockAsync(Duration.ZERO).thenCompose(held -> held.unlockAsync());
        });
    }

    /** The same calls as {@link #distinctNames}, as subscriptions to an annotated {@code Mono}. */
    public AsyncResult distinctNamesAnnotated(LockRegistry registry, int count, int rounds) throws Exception {
        AnnotatedMonos service = AnnotatedMonos.proxy(registry, Duration.ZERO, Duration.ZERO);
        return distinct(Kind.DISTINCT_ANNOTATED, "distlock @DistributedLock Mono", count, rounds, i -> service.distinctName(i).toFuture());
    }

    /** The same calls as {@link #distinctNames}, on Lettuce's async API directly: one connection, pipelined. */
    public AsyncResult floorDistinctNames(RedisClient client, int count, int rounds) throws Exception {
        try (StatefulRedisConnection<String, String> connection = client.connect()) {
            RedisAsyncCommands<String, String> redis = connection.async();
            String sha = redis.scriptLoad(RELEASE).get(10, TimeUnit.SECONDS);
            AtomicInteger tokens = new AtomicInteger();
            SetArgs nx = SetArgs.Builder.nx().px(30_000);
            return distinct(Kind.DISTINCT_FLOOR, "floor (Lettuce async)", count, rounds, i -> {
                String key = "async-floor:" + i;
                String token = "t" + tokens.incrementAndGet();
                return redis.set(key, token, nx).thenCompose(ok -> redis.<Long>evalsha(sha, ScriptOutputType.INTEGER,
                        new String[] {key}, token)).thenApply(released -> null);
            });
        }
    }

    private AsyncResult distinct(Kind kind, String who, int count, int rounds, IntFunction<CompletionStage<?>> call)
            throws Exception {
        for (int i = 0; i < count; i++) { // warm-up
            call.apply(i).toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS);
        }
        try (ThreadSampler sampler = new ThreadSampler()) {
            RedisCounters before = stats.read();
            long start = System.nanoTime();
            for (int round = 0; round < rounds; round++) {
                List<CompletableFuture<?>> done = new ArrayList<>(count);
                for (int i = 0; i < count; i++) {
                    done.add(call.apply(i).toCompletableFuture());
                }
                await(done);
            }
            double seconds = seconds(start);
            return new AsyncResult(kind, who + ": " + count + " at once on distinct names, " + rounds + " rounds",
                    count * rounds, seconds, sampler.idle, sampler.peak(), null, stats.read().minus(before));
        }
    }

    /** Whether all {@code count} arrivals came, each after the one before. */
    private static boolean inOrder(List<Integer> order, int count) {
        boolean inOrder = order.size() == count;
        for (int i = 1; inOrder && i < count; i++) {
            inOrder = order.get(i) > order.get(i - 1);
        }
        return inOrder;
    }

    private static void await(List<? extends CompletableFuture<?>> done) throws Exception {
        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(WAIT_SECONDS, TimeUnit.SECONDS);
    }

    private static double seconds(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e9;
    }

    /** Samples the JVM's live thread count every millisecond while open. */
    private final class ThreadSampler implements AutoCloseable {

        private final Thread sampler;
        final int idle;
        private volatile int peak;
        private volatile boolean running = true;

        ThreadSampler() {
            sampler = new Thread(() -> {
                while (running) {
                    peak = Math.max(peak, threads.getThreadCount());
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                }
            }, "async-check-sampler");
            sampler.setDaemon(true);
            sampler.start();
            idle = threads.getThreadCount();
            peak = idle;
        }

        int peak() {
            return Math.max(peak, threads.getThreadCount());
        }

        @Override
        public void close() throws InterruptedException {
            running = false;
            sampler.join(1000);
        }
    }
}
