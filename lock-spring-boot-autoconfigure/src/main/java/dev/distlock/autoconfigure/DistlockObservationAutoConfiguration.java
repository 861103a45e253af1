package dev.distlock.autoconfigure;

import dev.distlock.micrometer.LockAcquireObservationConvention;
import dev.distlock.micrometer.LockHoldObservationConvention;
import dev.distlock.micrometer.ObservationLockCallObserver;
import io.micrometer.observation.ObservationRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * Micrometer observations of {@code @DistributedLock} calls (the acquire and the hold, see
 * {@code DistlockObservationDocumentation}) on the application's {@link ObservationRegistry}, so Spring
 * Boot's {@code management.observations.*} settings apply: {@code management.observations.enable.distlock=false}
 * turns them off, {@code management.observations.key-values.*} adds tags. Conventions are replaced by beans
 * of {@link LockAcquireObservationConvention} or {@link LockHoldObservationConvention}.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration",
        // the same on Spring Boot 3
        "org.springframework.boot.actuate.autoconfigure.observation.ObservationAutoConfiguration" })
@ConditionalOnClass(ObservationRegistry.class)
@ConditionalOnBean(ObservationRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
public final class DistlockObservationAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    ObservationLockCallObserver distlockObservations(ObservationRegistry observationRegistry,
            ObjectProvider<LockAcquireObservationConvention> acquireConvention,
            ObjectProvider<LockHoldObservationConvention> holdConvention) {
        return new ObservationLockCallObserver(observationRegistry, acquireConvention.getIfUnique(),
                holdConvention.getIfUnique());
    }
}
