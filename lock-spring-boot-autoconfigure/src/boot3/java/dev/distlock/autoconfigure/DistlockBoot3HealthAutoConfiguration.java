package dev.distlock.autoconfigure;

import dev.distlock.actuate.Boot3DistlockHealthIndicator;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.health.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@code distlock} health indicator on Spring Boot 3, whose {@code HealthIndicator} lives in
 * {@code org.springframework.boot.actuate.health} (Spring Boot 4 moved it; there
 * {@link DistlockActuatorAutoConfiguration} adds it). Same conditions and switch
 * ({@code management.health.distlock.enabled}) as there.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = { DistlockAutoConfiguration.class, DistlockActuatorAutoConfiguration.class },
        afterName = "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration")
@ConditionalOnClass({ HealthIndicator.class, ConditionalOnEnabledHealthIndicator.class, RedisConnectionFactory.class })
@ConditionalOnBean(LockRegistry.class)
public final class DistlockBoot3HealthAutoConfiguration {

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
    // the in-memory store has no backend to check, Redlock's servers are not the application's Redis
    @ConditionalOnLockStore(DistlockProperties.Store.REDIS)
    static class RedisHealthConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("distlock")
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        Boot3DistlockHealthIndicator distlockHealthIndicator(RedisConnectionFactory redisConnectionFactory,
                ObjectProvider<RedisLockRegistry> registry, ObjectProvider<DistlockProperties> properties) {
            return new Boot3DistlockHealthIndicator(DistlockActuatorAutoConfiguration.redisHealthCheck(
                    redisConnectionFactory, registry, properties));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.lettuce.core.RedisURI") // what RedlockNodes connects with
    @ConditionalOnLockStore(DistlockProperties.Store.REDLOCK)
    @ConditionalOnBean(RedlockNodes.class)
    static class RedlockHealthConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("distlock")
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        Boot3DistlockHealthIndicator distlockHealthIndicator(RedlockNodes nodes) {
            return new Boot3DistlockHealthIndicator(DistlockActuatorAutoConfiguration.redlockHealthCheck(nodes));
        }
    }
}
