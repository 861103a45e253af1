package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.runtime.SystemExecutors;
import dev.distlock.memory.InMemoryLockRegistry;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Non-blocking waiters cost no thread while they wait, and get the lock in the order they asked. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncWaitersTest {

    private static final int WAITERS = 2_000;

    @Test
    void thousandsOfAsyncWaitersOnOneNameWaitWithoutThreadsAndGetTheLockInArrivalOrder() throws Exception {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            FencedLock lock = registry.obtain("one");
            lock.lock(); // the blocking holder every waiter queues behind
            int threadsBefore = ManagementFactory.getThreadMXBean().getThreadCount();

            List<Integer> order = new CopyOnWriteArrayList<>();
            List<CompletableFuture<Void>> done = new ArrayList<>();
            for (int i = 0; i < WAITERS; i++) {
                int arrival = i;
                done.add(lock.lockAsync().thenCompose((DetachedLock held) -> {
                    order.add(arrival);
                    return held.unlockAsync();
                }).toCompletableFuture());
            }
            int threadsWaiting = ManagementFactory.getThreadMXBean().getThreadCount();
            lock.unlock();
            CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(50, TimeUnit.SECONDS);

            assertThat(threadsWaiting - threadsBefore).as("threads started for %d waiters", WAITERS)
                    .isLessThanOrEqualTo(SystemExecutors.STEP_THREADS + 2);
            assertThat(order).hasSize(WAITERS).isSorted();
            assertThat(registry.store().heldNames()).isEmpty();
        }
    }

    @Test
    void aBlockingCallerQueuesBehindAsyncWaitersInArrivalOrder() throws Exception {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            FencedLock lock = registry.obtain("mixed");
            DetachedLock first = lock.lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
            CompletableFuture<DetachedLock> second = lock.tryLockAsync(Duration.ofSeconds(30)).toCompletableFuture();
            CompletableFuture<Boolean> third = CompletableFuture.supplyAsync(() -> {
                try {
                    return lock.tryLock(Duration.ofSeconds(30));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            });

            first.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
            DetachedLock secondHold = second.get(10, TimeUnit.SECONDS);

            assertThat(secondHold.fencingToken()).isGreaterThan(first.fencingToken());
            assertThat(third).isNotDone();
            secondHold.unlock();
            assertThat(third.get(10, TimeUnit.SECONDS)).isTrue();
        }
    }
}
