package dev.distlock.compat;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Calls of the application's {@link Counter} from several threads at once, as concurrent requests would. */
final class ConcurrentCalls {

    private static final int THREADS = 4;

    private ConcurrentCalls() {
    }

    /** Increments counter {@code name} {@code calls} times on 4 threads; each call must return a count. */
    static void increment(Counter counter, String name, int calls) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(THREADS);
        try {
            List<Future<Long>> results = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                results.add(threads.submit(() -> counter.increment(name)));
            }
            for (Future<Long> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isPositive();
            }
        } finally {
            threads.shutdownNow();
        }
    }
}
