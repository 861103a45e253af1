package dev.distlock.samples.woven;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import dev.distlock.micrometer.DistlockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The checks of the woven application, on whichever store a test starts it with. */
final class WovenLocks {

    private WovenLocks() {
    }

    /** Starts the application, with a meter registry, on the given properties. */
    static ConfigurableApplicationContext start(String... properties) {
        return new SpringApplicationBuilder(WovenServiceApplication.class, Meters.class).properties(properties)
                .run();
    }

    /**
     * While one call of {@code call} holds {@code sku}'s lock (inside its work), a second call is skipped without
     * running its work; once the first returns, a call runs again. Unlocked, the second call would run.
     */
    static void assertOneCallAtATime(BiFunction<String, Runnable, String> call, String sku, String done)
            throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch leave = new CountDownLatch(1);
        CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> call.apply(sku, () -> {
            entered.countDown();
            await(leave);
        }));
        try {
            assertThat(entered.await(10, TimeUnit.SECONDS)).as("the first call is inside its method").isTrue();
            assertThat(call.apply(sku, () -> fail("ran while another call held the lock of " + sku)))
                    .as("a call while the lock is held is skipped").isNull();
        } finally {
            leave.countDown();
        }
        assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo(done);
        assertThat(call.apply(sku, () -> { })).as("a call after the release runs").isEqualTo(done);
    }

    /** The number of calls of the method labelled {@code lock} that were skipped, as the meters recorded them. */
    static double skipped(MeterRegistry meters, String lock) {
        return meters.get(DistlockMetrics.SKIPPED).tag(DistlockMetrics.LOCK_TAG, lock).counter().count();
    }

    /** The number of acquisitions of {@code lock} the meters timed with outcome {@code outcome}. */
    static long acquisitions(MeterRegistry meters, String lock, String outcome) {
        return meters.get(DistlockMetrics.ACQUIRE).tag(DistlockMetrics.LOCK_TAG, lock)
                .tag(DistlockMetrics.OUTCOME_TAG, outcome).timer().count();
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test did not let the first call go on within 10s");
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(ex);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Meters {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }
    }
}
