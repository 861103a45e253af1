package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.micrometer.DistlockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class DistlockMetricsAutoConfigurationTests {

    /**
     * Spring Boot's own metrics auto-configurations, listed after ours: the ordering must come from
     * {@code @AutoConfiguration(afterName = ...)}, not from this list.
     */
    private static final AutoConfigurations BOOT_METRICS = AutoConfigurations.of(MetricsAutoConfiguration.class,
            CompositeMeterRegistryAutoConfiguration.class, SimpleMetricsExportAutoConfiguration.class);

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistlockMetricsAutoConfiguration.class));

    @Test
    void recordsLockEventsInTheMeterRegistryOfSpringBootsMetricsAutoConfiguration() {
        runner.withConfiguration(BOOT_METRICS).run(context -> {
            assertThat(context).hasSingleBean(DistlockMetrics.class);
            context.getBean(LockListener.class)
                    .onAcquired(new LockEvent("order:1", "pay", 1, Duration.ofMillis(3), null));
            assertThat(context.getBean(MeterRegistry.class).get("distlock.acquire").tag("lock", "pay")
                    .tag("outcome", "acquired").timer().count()).isEqualTo(1);
        });
    }

    @Test
    void recordsInAMeterRegistryTheApplicationDefinesItself() {
        runner.withBean(SimpleMeterRegistry.class)
                .run(context -> assertThat(context).hasSingleBean(DistlockMetrics.class));
    }

    @Test
    void backsOffWithoutAMeterRegistryBean() {
        runner.run(context -> assertThat(context).doesNotHaveBean(DistlockMetrics.class));
    }

    @Test
    void backsOffWhenMicrometerIsNotOnTheClassPath() {
        runner.withConfiguration(BOOT_METRICS).withClassLoader(new FilteredClassLoader("io.micrometer"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlockMetrics.class));
    }

    @Test
    void backsOffWhenDistlockMetricsAreTurnedOff() {
        runner.withBean(SimpleMeterRegistry.class).withPropertyValues("distlock.metrics.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockMetrics.class));
    }

    @Test
    void backsOffWhenDistlockIsTurnedOff() {
        runner.withBean(SimpleMeterRegistry.class).withPropertyValues("distlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockMetrics.class));
    }

    @Test
    void usesTheApplicationsOwnDistlockMetrics() {
        DistlockMetrics own = new DistlockMetrics(new SimpleMeterRegistry());
        runner.withBean(SimpleMeterRegistry.class).withBean(DistlockMetrics.class, () -> own)
                .run(context -> assertThat(context).getBean(DistlockMetrics.class).isSameAs(own));
    }
}
