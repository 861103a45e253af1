package dev.distlock.autoconfigure;

import dev.distlock.aop.LockCallObserver;
import dev.distlock.micrometer.DistlockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer metrics of distributed locks: a {@link DistlockMetrics} listener, which the main
 * auto-configuration hands to the lock registry with every other {@code LockListener} bean, and its counter of
 * skipped {@code @DistributedLock} calls, an observer of those calls like every other {@code LockCallObserver} bean.
 *
 * <p>Runs after Spring Boot's metrics auto-configurations (named, so that none of them is needed on the
 * class path) because {@code @ConditionalOnBean(MeterRegistry.class)} only sees meter registries whose
 * definitions are registered already. Turned off by {@code distlock.metrics.enabled=false} or
 * {@code distlock.enabled=false}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        // the same on Spring Boot 3
        "org.springframework.boot.actuate.autoconfigure.metrics.MetricsAutoConfiguration",
        "org.springframework.boot.actuate.autoconfigure.metrics.CompositeMeterRegistryAutoConfiguration" })
@ConditionalOnClass(MeterRegistry.class)
@ConditionalOnBean(MeterRegistry.class)
@ConditionalOnBooleanProperty(name = { "distlock.enabled", "distlock.metrics.enabled" }, matchIfMissing = true)
public final class DistlockMetricsAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DistlockMetrics distlockMetrics(MeterRegistry meterRegistry) {
        return new DistlockMetrics(meterRegistry);
    }

    /** Counts the annotated calls that skipped their method, which the registry's events cannot tell. */
    @Bean
    LockCallObserver distlockSkippedCalls(DistlockMetrics metrics) {
        return metrics.skippedCalls();
    }
}
