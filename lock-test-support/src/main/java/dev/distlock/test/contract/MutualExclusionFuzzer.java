package dev.distlock.test.contract;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Hammers one lock from several threads on several registries (standing for processes) that each do a
 * non-atomic read, increment, write of a shared counter under the lock. With a correct lock the counter
 * ends exact and no two threads were ever inside together.
 */
public final class MutualExclusionFuzzer {

    /**
     * A value the threads update in two separate steps, so that unguarded updates get lost. An in-JVM one
     * must make its reads see earlier writes (a volatile field), or a correct lock would look broken.
     */
    public interface SharedCounter {

        long read();

        void write(long value);
    }

    /**
     * What a run observed.
     *
     * @param expected increments made
     * @param actual the counter at the end
     * @param maxConcurrentHolders the most threads seen inside the critical section at once
     * @param fencingTokensIncreased whether every hold's fencing token was larger than the previous hold's
     */
    public record Result(long expected, long actual, int maxConcurrentHolders, boolean fencingTokensIncreased) {
    }

    private MutualExclusionFuzzer() {
    }

    /**
     * Runs {@code threadsPerRegistry} threads on each registry, each making {@code incrementsPerThread}
     * increments under the lock {@code lockName}; gives up after {@code timeout}.
     */
    public static Result run(List<? extends LockRegistry> registries, String lockName, int threadsPerRegistry,
            int incrementsPerThread, SharedCounter counter, Duration timeout) throws Exception {
        counter.write(0);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        AtomicLong lastFence = new AtomicLong(Long.MIN_VALUE);
        AtomicBoolean fencesIncreased = new AtomicBoolean(true);
        int threads = registries.size() * threadsPerRegistry;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> workers = new ArrayList<>();
            for (LockRegistry registry : registries) {
                for (int t = 0; t < threadsPerRegistry; t++) {
                    workers.add(pool.submit(() -> {
                        start.await();
                        FencedLock lock = registry.obtain(lockName);
                        for (int i = 0; i < incrementsPerThread; i++) {
                            lock.lock();
                            try {
                                maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
                                long fence = lock.fencingToken();
                                if (fence <= lastFence.getAndSet(fence)) {
                                    fencesIncreased.set(false);
                                }
                                long value = counter.read();
                                Thread.yield();
                                counter.write(value + 1);
                                inside.decrementAndGet();
                            } finally {
                                lock.unlock();
                            }
                        }
                        return null;
                    }));
                }
            }
            start.countDown();
            long deadline = System.nanoTime() + timeout.toNanos();
            for (Future<?> worker : workers) {
                worker.get(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
            }
        } finally {
            pool.shutdownNow();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        return new Result((long) threads * incrementsPerThread, counter.read(), maxInside.get(), fencesIncreased.get());
    }
}
