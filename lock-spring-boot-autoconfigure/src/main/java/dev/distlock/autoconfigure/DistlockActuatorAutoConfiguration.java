package dev.distlock.autoconfigure;

import dev.distlock.actuate.DistlockHealthCheck;
import dev.distlock.actuate.DistlockHealthIndicator;
import dev.distlock.actuate.DistlocksEndpoint;
import dev.distlock.actuate.RedlockHealthCheck;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.Map;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Actuator support for distributed locks, for applications that have a {@link LockRegistry}: the
 * {@code distlocks} endpoint (with {@code spring-boot-actuator}) and the {@code distlock} health indicator
 * (with {@code spring-boot-health}, when locks live in Redis: the application's, or Redlock's servers). Each
 * part backs off when its library is absent or the application defines its own bean.
 *
 * <p>Runs after the auto-configurations that define the lock registry and the Redis connection factory,
 * so that the bean conditions see them. The endpoint exists only when it is available, as for every
 * endpoint: exposed ({@code management.endpoints.web.exposure.include=distlocks}) and not turned off
 * ({@code management.endpoint.distlocks.access}); the health indicator is turned off by
 * {@code management.health.distlock.enabled=false}.
 *
 * <p>This is the health indicator of Spring Boot 4 ({@code spring-boot-health}); on Spring Boot 3 the
 * indicator comes from {@code DistlockBoot3HealthAutoConfiguration}, chosen by which {@code HealthIndicator}
 * type is on the class path. Both report what {@link DistlockHealthCheck} (one Redis) or
 * {@link RedlockHealthCheck} (Redlock's servers) finds.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "dev.distlock.autoconfigure.DistlockAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnBean(LockRegistry.class)
public final class DistlockActuatorAutoConfiguration {

    /** How long each Redlock server may take to answer the health check before it counts as down. */
    static final Duration REDLOCK_SERVER_HEALTH_TIMEOUT = Duration.ofSeconds(2);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        DistlocksEndpoint distlocksEndpoint(Map<String, LockRegistry> registries) {
            return new DistlocksEndpoint(registries);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({ HealthIndicator.class, RedisConnectionFactory.class })
    @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
    // the application's Redis is the store only then (in memory there is nothing to check)
    @ConditionalOnLockStore(DistlockProperties.Store.REDIS)
    static class HealthConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("distlock")
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        DistlockHealthIndicator distlockHealthIndicator(RedisConnectionFactory redisConnectionFactory,
                ObjectProvider<RedisLockRegistry> registry, ObjectProvider<DistlockProperties> properties) {
            return new DistlockHealthIndicator(redisHealthCheck(redisConnectionFactory, registry, properties));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(value = HealthIndicator.class, name = "io.lettuce.core.RedisURI")
    @ConditionalOnLockStore(DistlockProperties.Store.REDLOCK)
    @ConditionalOnBean(RedlockNodes.class)
    static class RedlockHealthConfiguration {

        @Bean
        @ConditionalOnEnabledHealthIndicator("distlock")
        @ConditionalOnMissingBean(name = "distlockHealthIndicator")
        DistlockHealthIndicator distlockHealthIndicator(RedlockNodes nodes) {
            return new DistlockHealthIndicator(redlockHealthCheck(nodes));
        }
    }

    /** The check of the application's Redis for its registry (both Boot generations' indicators use it). */
    static DistlockHealthCheck redisHealthCheck(RedisConnectionFactory redisConnectionFactory,
            ObjectProvider<RedisLockRegistry> registry, ObjectProvider<DistlockProperties> properties) {
        return DistlockHealthCheck.of(redisConnectionFactory, registry.getIfUnique(), keyPrefix(properties));
    }

    /** The check of the Redlock servers: each must answer within {@link #REDLOCK_SERVER_HEALTH_TIMEOUT}. */
    static RedlockHealthCheck redlockHealthCheck(RedlockNodes nodes) {
        return RedlockHealthCheck.of(nodes.byServer(), REDLOCK_SERVER_HEALTH_TIMEOUT);
    }

    /** The configured key prefix, for applications whose own registry is no {@link RedisLockRegistry}. */
    public static String keyPrefix(ObjectProvider<DistlockProperties> properties) {
        DistlockProperties configured = properties.getIfAvailable();
        return configured != null ? configured.getKeyPrefix() : new DistlockProperties().getKeyPrefix();
    }
}
