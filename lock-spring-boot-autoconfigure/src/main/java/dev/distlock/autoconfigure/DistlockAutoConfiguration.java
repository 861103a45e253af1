package dev.distlock.autoconfigure;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.support.StoreLockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.redlock.RedlockLockRegistry;
import java.time.Duration;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Qualifier;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Auto-configuration of distlock: a {@link LockRegistry} on the application's Redis (or on the independent
 * servers of {@code distlock.redlock.nodes} with Redlock, or, when asked for with {@code distlock.store=memory},
 * in memory) and the advisor that makes {@code @DistributedLock} work.
 * Every bean backs off when the application defines its own; {@code distlock.enabled=false} turns it all off.
 *
 * <p>The Redis registry needs exactly one {@link RedisConnectionFactory} (or a primary one) and shares a
 * {@link RedisMessageListenerContainer} bean ({@value #LISTENER_CONTAINER_BEAN}) for its hand-off notices.
 * That container is a lifecycle bean stopped in phase {@link #LISTENER_CONTAINER_PHASE}: after web servers
 * and executors have finished their work, before the connection factory (phase 0) closes its connections,
 * so that shutdown closes the registry's pub/sub connection while Redis is still reachable. The registry itself
 * closes in phase {@link #REGISTRY_PHASE}, just before, giving back every hold it still has.
 *
 * @since 0.1.0
 */
@AutoConfiguration(afterName = {
        "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration",
        "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@EnableConfigurationProperties(DistlockProperties.class)
@Import({DistlockAutoConfiguration.RedisRegistryConfiguration.class,
        DistlockAutoConfiguration.RedlockRegistryConfiguration.class,
        DistlockAutoConfiguration.RedlockWithoutLettuceConfiguration.class,
        DistlockAutoConfiguration.InMemoryRegistryConfiguration.class,
        DistlockAnnotationConfiguration.class})
public final class DistlockAutoConfiguration {

    /** The name of the pub/sub container bean the Redis registry hears hand-off notices on. */
    public static final String LISTENER_CONTAINER_BEAN = "distlockListenerContainer";

    /**
     * The lifecycle phase of that container: stopped after web servers ({@code DEFAULT_PHASE - 2048} and
     * above) and executors ({@code DEFAULT_PHASE}), before Redis connection factories (0).
     */
    public static final int LISTENER_CONTAINER_PHASE = SmartLifecycle.DEFAULT_PHASE - 4096;

    /**
     * The lifecycle phase in which the registry closes and gives its holds back: just before the pub/sub container,
     * so after web servers and executors, and before Redis connection factories.
     */
    public static final int REGISTRY_PHASE = LISTENER_CONTAINER_PHASE + 1;

    /** Closes the registry (giving its holds back) while Redis is still reachable: {@link RegistryShutdown}. */
    @Bean
    @ConditionalOnMissingBean(name = "distlockRegistryShutdown")
    SmartLifecycle distlockRegistryShutdown(ObjectProvider<StoreLockRegistry> registry) {
        return new RegistryShutdown(registry);
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(RedisConnectionFactory.class)
    @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
    @ConditionalOnLockStore(DistlockProperties.Store.REDIS)
    static class RedisRegistryConfiguration {

        @Bean(LISTENER_CONTAINER_BEAN)
        @ConditionalOnMissingBean(value = LockRegistry.class, name = LISTENER_CONTAINER_BEAN)
        RedisMessageListenerContainer distlockListenerContainer(RedisConnectionFactory connectionFactory) {
            RedisMessageListenerContainer container = new PhasedListenerContainer();
            container.setConnectionFactory(connectionFactory);
            // notices only wake a waiter: run them on the connection's thread, no thread per message
            container.setTaskExecutor(new SyncTaskExecutor());
            SimpleAsyncTaskExecutor subscriptions = new SimpleAsyncTaskExecutor("distlock-pubsub-");
            subscriptions.setDaemon(true);
            container.setSubscriptionExecutor(subscriptions);
            return container;
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(LockRegistry.class)
        RedisLockRegistry lockRegistry(RedisConnectionFactory connectionFactory, DistlockProperties properties,
                ObjectProvider<LockListener> listeners,
                @Qualifier(LISTENER_CONTAINER_BEAN) RedisMessageListenerContainer listenerContainer,
                ObjectProvider<RedisLockRegistryBuilderCustomizer> customizers, Environment environment) {
            RedisLockRegistry.Builder builder = DistlockSettings.withSharedSettings(RedisLockRegistry.builder(connectionFactory),
                    properties, listeners, environment)
                    .listenerContainer(listenerContainer);
            DistlockSettings.apply("key-prefix", properties.getKeyPrefix(), () -> builder.keyPrefix(
                    properties.getKeyPrefix()));
            DistlockSettings.withFenceRetention(builder::fenceRetention, properties);
            withReplicaAcknowledgement(builder, properties.getReplication());
            ConnectionAdvice.warnAbout(connectionFactory, properties);
            customizers.orderedStream().forEach(customizer -> customizer.customize(builder));
            return builder.build();
        }

        /**
         * {@code distlock.replication.*}: the replicas online (auto), a number of them, or none. The number's rules
         * are checked first, with a timeout that works, so that a refusal names the property at fault.
         */
        private static void withReplicaAcknowledgement(RedisLockRegistry.Builder builder,
                DistlockProperties.Replication replication) {
            int replicas = DistlockSettings.apply("replication.acks", replication.getAcks(),
                    replication::replicasToAcknowledge);
            if (replicas < 0) {
                DistlockSettings.apply("replication.ack-timeout", replication.getAckTimeout(),
                        () -> builder.connectedReplicaAcknowledgement(replication.getAckTimeout()));
                return;
            }
            DistlockSettings.apply("replication.acks", replication.getAcks(),
                    () -> builder.replicaAcknowledgement(replicas, Duration.ofSeconds(1)));
            DistlockSettings.apply("replication.ack-timeout", replication.getAckTimeout(),
                    () -> builder.replicaAcknowledgement(replicas, replication.getAckTimeout()));
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "io.lettuce.core.RedisURI")
    @ConditionalOnLockStore(DistlockProperties.Store.REDLOCK)
    static class RedlockRegistryConfiguration {

        @Bean(destroyMethod = "destroy")
        @ConditionalOnMissingBean(LockRegistry.class)
        RedlockNodes distlockRedlockNodes(DistlockProperties properties) {
            return RedlockNodes.connect(properties.getRedlock());
        }

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(LockRegistry.class)
        RedlockLockRegistry lockRegistry(RedlockNodes nodes, DistlockProperties properties,
                ObjectProvider<LockListener> listeners, Environment environment) {
            if (DistlockSettings.apply("replication.acks", properties.getReplication().getAcks(),
                    properties.getReplication()::replicasToAcknowledge) > 0) {
                throw DistlockSettings.invalid("replication.acks", properties.getReplication().getAcks(), "does not "
                        + "apply to Redlock, whose servers are independent primaries: set it to auto or 0, or use "
                        + "distlock.store=redis");
            }
            RedlockLockRegistry.Builder builder = DistlockSettings.withSharedSettings(DistlockSettings.apply("redlock.nodes",
                    properties.getRedlock().getNodes(), () -> RedlockLockRegistry.builder(nodes.factories())),
                    properties, listeners, environment);
            DistlockSettings.apply("key-prefix", properties.getKeyPrefix(), () -> builder.keyPrefix(
                    properties.getKeyPrefix()));
            DistlockSettings.withFenceRetention(builder::fenceRetention, properties);
            DistlockSettings.apply("redlock.node-timeout", properties.getRedlock().getNodeTimeout(),
                    () -> builder.nodeTimeout(properties.getRedlock().getNodeTimeout()));
            return builder.build();
        }
    }

    /** Redlock asked for, but the client it connects with is missing: fail the startup saying so. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass("io.lettuce.core.RedisURI")
    @ConditionalOnLockStore(DistlockProperties.Store.REDLOCK)
    static class RedlockWithoutLettuceConfiguration {

        @Bean
        @ConditionalOnMissingBean(LockRegistry.class)
        LockRegistry lockRegistry(DistlockProperties properties) {
            throw DistlockSettings.invalid("redlock.nodes", properties.getRedlock().getNodes(), "needs the Lettuce "
                    + "client (io.lettuce:lettuce-core, in spring-boot-starter-data-redis) to connect to the servers");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockStore(DistlockProperties.Store.MEMORY)
    static class InMemoryRegistryConfiguration {

        @Bean(destroyMethod = "close")
        @ConditionalOnMissingBean(LockRegistry.class)
        InMemoryLockRegistry lockRegistry(DistlockProperties properties, ObjectProvider<LockListener> listeners,
                Environment environment) {
            return DistlockSettings.withSharedSettings(InMemoryLockRegistry.builder(), properties, listeners, environment).build();
        }
    }

    /** The container in {@link #LISTENER_CONTAINER_PHASE}; Spring Data Redis 3 has no {@code setPhase}. */
    static final class PhasedListenerContainer extends RedisMessageListenerContainer {

        @Override
        public int getPhase() {
            return LISTENER_CONTAINER_PHASE;
        }
    }
}
