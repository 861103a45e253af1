package dev.distlock.autoconfigure;

import dev.distlock.core.LockRegistry;
import dev.distlock.deployment.DeploymentReport;
import dev.distlock.deployment.DeploymentReports;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.redlock.RedlockLockRegistry;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The deployment report of every {@link LockRegistry} bean: what it runs on and what that setup cannot promise
 * ({@link DeploymentReport}), logged once when the application is ready (logger {@code dev.distlock.deployment}) and
 * shown by the {@code distlocks} endpoint. A Redis registry is reported on the application's single
 * {@link RedisConnectionFactory}, a Redlock registry on the servers of {@code distlock.redlock.nodes}; registries of
 * other kinds, or on a Redis the application has several factories for, are left out.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = { "dev.distlock.autoconfigure.DistlockAutoConfiguration",
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration" })
@ConditionalOnBean(LockRegistry.class)
public final class DistlockDeploymentAutoConfiguration {

    @Bean
    @ConditionalOnMissingBean
    DeploymentReports distlockDeploymentReports(Map<String, LockRegistry> registries,
            ObjectProvider<RedisConnectionFactory> redis, ObjectProvider<RedlockNodes> redlock,
            ObjectProvider<DistlockProperties> properties) {
        DistlockProperties settings = properties.getIfAvailable(DistlockProperties::new);
        int replicas = settings.getReplication().replicasToAcknowledge();
        String acks = replicas < 0 ? "auto" : Integer.toString(replicas);
        Map<String, Supplier<DeploymentReport>> readers = new HashMap<>();
        registries.forEach((name, registry) -> {
            RedisConnectionFactory factory = redis.getIfUnique();
            RedlockNodes nodes = redlock.getIfAvailable();
            if (registry instanceof RedisLockRegistry && factory != null) {
                readers.put(name, () -> DeploymentReports.redis(name, factory, acks));
            } else if (registry instanceof RedlockLockRegistry && nodes != null) {
                readers.put(name, () -> DeploymentReports.redlock(name, nodes.byServer()));
            } else if (registry instanceof InMemoryLockRegistry) {
                readers.put(name, () -> DeploymentReports.memory(name));
            }
        });
        return new DeploymentReports(readers);
    }

    /** Logs the reports once, when the application is ready (never holding up its start). */
    @Bean
    ApplicationListener<ApplicationReadyEvent> distlockDeploymentReportLogger(DeploymentReports reports) {
        return ready -> reports.log();
    }
}
