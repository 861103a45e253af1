package dev.distlock.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** Waiting in the endpoint's tests: for a condition, bounded; and a caller that waits for a lock in the background. */
final class Waiting {

    private Waiting() {
    }

    /** Waits until {@code condition} holds, failing after 10 s. */
    static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within 10 s").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** One call that waits up to {@code wait} for {@code lock}, takes it and gives it back at once: whether it got it. */
    static CompletableFuture<Boolean> waitFor(FencedLock lock, Duration wait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                boolean acquired = lock.tryLock(wait);
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }
}
