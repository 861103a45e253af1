package dev.distlock.boot3;

import dev.distlock.actuate.HealthCheck;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The {@code distlock} health indicator on Spring Boot 3, whose {@code HealthIndicator} lives in
 * {@code org.springframework.boot.actuate.health} (Spring Boot 4 moved it; there
 * {@code DistlockHealthAutoConfiguration} adds the indicator). It reports what the {@link HealthCheck} bean of
 * {@code DistlockActuatorAutoConfiguration} finds; same switch ({@code management.health.distlock.enabled}) and
 * back-off (an application's own {@code distlockHealthIndicator}) as there. Inert on Spring Boot 4.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "dev.distlock.autoconfigure.DistlockActuatorAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(HealthCheck.class)
public final class DistlockBoot3HealthAutoConfiguration {

    @Bean
    @ConditionalOnEnabledHealthIndicator("distlock")
    @ConditionalOnMissingBean(name = "distlockHealthIndicator")
    Boot3DistlockHealthIndicator distlockHealthIndicator(HealthCheck distlockHealthCheck) {
        return new Boot3DistlockHealthIndicator(distlockHealthCheck);
    }
}
