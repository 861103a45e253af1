package dev.distlock.aop;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs callers on their own threads, released together, each calling a number of times; bounded waits. */
final class ConcurrentCalls {

    private ConcurrentCalls() {
    }

    /** {@code threads} threads each make {@code rounds} calls of {@code call}. */
    static void repeat(int threads, int rounds, Duration bound, Call call) throws Exception {
        repeat(Collections.nCopies(threads, call), rounds, bound);
    }

    /** One thread per caller, each making {@code rounds} calls; fails if any call fails or time runs out. */
    static void repeat(List<Call> callers, int rounds, Duration bound) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(callers.size());
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (Call caller : callers) {
                done.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        caller.call();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(bound.toMillis(), TimeUnit.MILLISECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** One call of the code under test. */
    @FunctionalInterface
    interface Call {

        void call() throws Exception;
    }
}
