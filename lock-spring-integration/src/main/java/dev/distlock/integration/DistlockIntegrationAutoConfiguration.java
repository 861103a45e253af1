package dev.distlock.integration;

import dev.distlock.core.LockRegistry;
import java.time.Duration;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;

/**
 * Spring Integration's {@code LockRegistry} on distlock, when Spring Integration is on the class path and the
 * application has a distlock {@link LockRegistry} (the starter's, say) and no Spring Integration lock registry of its
 * own: {@code LockRegistryLeaderInitiator}, aggregators and the other lock users then lock through distlock. The
 * locks' lease is {@code distlock.integration.lease-mode} ({@code renewed} by default) and
 * {@code distlock.integration.expire-after} ({@code distlock.lease} by default).
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = "dev.distlock.autoconfigure.DistlockAutoConfiguration")
@ConditionalOnClass(name = "org.springframework.integration.support.locks.LockRegistry")
@ConditionalOnBean(LockRegistry.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockIntegrationProperties.class)
public final class DistlockIntegrationAutoConfiguration {

    /** {@code distlock.lease}'s default. */
    private static final Duration DEFAULT_LEASE = Duration.ofSeconds(30);

    @Bean
    @ConditionalOnMissingBean(org.springframework.integration.support.locks.LockRegistry.class)
    DistlockIntegrationLockRegistry distlockIntegrationLockRegistry(LockRegistry locks,
            DistlockIntegrationProperties properties, Environment environment) {
        Duration expireAfter = properties.getExpireAfter() != null ? properties.getExpireAfter()
                : Binder.get(environment).bind("distlock.lease", Duration.class).orElse(DEFAULT_LEASE);
        return new DistlockIntegrationLockRegistry(locks, expireAfter, properties.getLeaseMode());
    }
}
