package dev.distlock.autoconfigure;

import dev.distlock.actuate.DistlockHealthIndicator;
import dev.distlock.actuate.HealthCheck;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;

/**
 * The {@code distlock} health indicator of Spring Boot 4 ({@code spring-boot-health}): reports what the
 * {@link HealthCheck} bean of {@link DistlockActuatorAutoConfiguration} finds. Turned off by
 * {@code management.health.distlock.enabled=false}; backs off when the application has its own
 * {@code distlockHealthIndicator}. Spring Boot 3 applications get the same indicator from
 * {@code DistlockBoot3HealthAutoConfiguration} (module {@code lock-spring-boot3-health}).
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = DistlockActuatorAutoConfiguration.class)
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class })
@ConditionalOnBean(HealthCheck.class)
public final class DistlockHealthAutoConfiguration {

    @Bean
    @ConditionalOnEnabledHealthIndicator("distlock")
    @ConditionalOnMissingBean(name = "distlockHealthIndicator")
    DistlockHealthIndicator distlockHealthIndicator(HealthCheck distlockHealthCheck) {
        return new DistlockHealthIndicator(distlockHealthCheck);
    }
}
