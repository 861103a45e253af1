package dev.distlock.autoconfigure;

import dev.distlock.actuate.DistlockHealthCheck;
import dev.distlock.actuate.DistlocksEndpoint;
import dev.distlock.actuate.ForceReleasingDistlocksEndpoint;
import dev.distlock.actuate.HealthCheck;
import dev.distlock.actuate.RedlockHealthCheck;
import dev.distlock.core.LockRegistry;
import dev.distlock.deployment.DeploymentReports;
import dev.distlock.micrometer.DistlockMetrics;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.function.Consumer;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Actuator support for distributed locks, for applications that have a {@link LockRegistry}: the
 * {@code distlocks} endpoint (with {@code spring-boot-actuator}) and the {@link HealthCheck} bean behind the
 * {@code distlock} health indicator (with either Spring Boot generation's health support, when locks live in
 * Redis: the application's, or Redlock's servers). Each part backs off when its library is absent or the
 * application defines its own bean.
 *
 * <p>Runs after the auto-configurations that define the lock registry and the Redis connection factory,
 * so that the bean conditions see them. The endpoint exists only when it is available, as for every
 * endpoint: exposed ({@code management.endpoints.web.exposure.include=distlocks}) and not turned off
 * ({@code management.endpoint.distlocks.access}). Its write operation, an operator's forced release
 * ({@link ForceReleasingDistlocksEndpoint}), exists only with {@code distlock.actuator.force-release.enabled=true}.
 *
 * <p>The health indicators themselves only report what the check finds, one per Spring Boot generation, each in
 * an auto-configuration of its own that runs after this one: {@link DistlockHealthAutoConfiguration} on Spring
 * Boot 4, {@code DistlockBoot3HealthAutoConfiguration} (module {@code lock-spring-boot3-health}) on Spring
 * Boot 3. The check is {@link DistlockHealthCheck} (one Redis) or {@link RedlockHealthCheck} (Redlock's
 * servers).
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "dev.distlock.autoconfigure.DistlockAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnBean(LockRegistry.class)
public final class DistlockActuatorAutoConfiguration {

    /** The property that turns on the endpoint's forced release. */
    static final String FORCE_RELEASE = "distlock.actuator.force-release.enabled";

    /** How long each Redlock server may take to answer the health check before it counts as down. */
    static final Duration REDLOCK_SERVER_HEALTH_TIMEOUT = Duration.ofSeconds(2);

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass({Endpoint.class, ConditionalOnAvailableEndpoint.class})
    static class EndpointConfiguration {

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnAvailableEndpoint
        @ConditionalOnBooleanProperty(name = FORCE_RELEASE, havingValue = false, matchIfMissing = true)
        DistlocksEndpoint distlocksEndpoint(Map<String, LockRegistry> registries,
                ObjectProvider<DeploymentReports> deployments) {
            return new DistlocksEndpoint(registries, deployments.getIfAvailable());
        }

        /** The endpoint with its forced release, only when turned on: otherwise the operation does not exist. */
        @Bean
        @ConditionalOnMissingBean(DistlocksEndpoint.class)
        @ConditionalOnAvailableEndpoint(endpoint = DistlocksEndpoint.class)
        @ConditionalOnBooleanProperty(FORCE_RELEASE)
        ForceReleasingDistlocksEndpoint forceReleasingDistlocksEndpoint(Map<String, LockRegistry> registries,
                ObjectProvider<DeploymentReports> deployments, ListableBeanFactory beans) {
            return new ForceReleasingDistlocksEndpoint(registries, deployments.getIfAvailable(),
                    ForcedReleaseCounter.of(beans));
        }
    }

    /**
     * Counts forced releases in {@code distlock.force.released} when distlock's metrics are on; touches Micrometer's
     * classes only if they are on the class path.
     */
    static final class ForcedReleaseCounter {

        private ForcedReleaseCounter() {
        }

        static Consumer<String> of(ListableBeanFactory beans) {
            if (!ClassUtils.isPresent("io.micrometer.core.instrument.MeterRegistry",
                    ForcedReleaseCounter.class.getClassLoader())) {
                return registry -> {
                };
            }
            return Micrometer.counter(beans);
        }

        /** Apart, so that nothing of Micrometer is loaded without it. */
        private static final class Micrometer {

            static Consumer<String> counter(ListableBeanFactory beans) {
                ObjectProvider<DistlockMetrics> metrics = beans.getBeanProvider(DistlockMetrics.class);
                // looked up at each release: the metrics bean is created after the endpoint, if at all
                return registry -> metrics.ifAvailable(found -> found.forcedReleases().accept(registry));
            }
        }
    }

    /**
     * What the {@code distlock} health indicator of either Spring Boot generation reports
     * ({@link DistlockHealthAutoConfiguration} on Spring Boot 4, {@code DistlockBoot3HealthAutoConfiguration} of
     * {@code lock-spring-boot3-health} on Spring Boot 3): the check of the backend the locks live on. Defined only
     * where one of the generations' health support is on the class path.
     */
    @Configuration(proxyBeanMethods = false)
    @Conditional(OnHealthSupportCondition.class)
    static class HealthCheckConfiguration {

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(RedisConnectionFactory.class)
        @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
        // the application's Redis is the store only then (in memory there is nothing to check)
        @ConditionalOnLockStore(DistlockProperties.Store.REDIS)
        static class RedisHealthCheckConfiguration {

            @Bean
            @ConditionalOnMissingBean(HealthCheck.class)
            DistlockHealthCheck distlockHealthCheck(RedisConnectionFactory redisConnectionFactory,
                    ObjectProvider<RedisLockRegistry> registry, ObjectProvider<DistlockProperties> properties) {
                return redisHealthCheck(redisConnectionFactory, registry, properties);
            }
        }

        @Configuration(proxyBeanMethods = false)
        @ConditionalOnClass(name = "io.lettuce.core.RedisURI") // what RedlockNodes connects with
        @ConditionalOnLockStore(DistlockProperties.Store.REDLOCK)
        @ConditionalOnBean(RedlockNodes.class)
        static class RedlockHealthCheckConfiguration {

            @Bean
            @ConditionalOnMissingBean(HealthCheck.class)
            RedlockHealthCheck distlockHealthCheck(RedlockNodes nodes) {
                return redlockHealthCheck(nodes);
            }
        }
    }

    /** Matches when Spring Boot 4's health support or Spring Boot 3's Actuator health is on the class path. */
    static final class OnHealthSupportCondition extends AnyNestedCondition {

        OnHealthSupportCondition() {
            super(ConfigurationPhase.PARSE_CONFIGURATION);
        }

        @ConditionalOnClass(name = "org.springframework.boot.health.contributor.HealthIndicator")
        static final class Boot4Health {
        }

        @ConditionalOnClass(name = "org.springframework.boot.actuate.health.HealthIndicator")
        static final class Boot3Health {
        }
    }

    /** The check of the application's Redis for its registry. */
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
