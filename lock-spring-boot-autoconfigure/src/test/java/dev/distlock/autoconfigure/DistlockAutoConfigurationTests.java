package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.LockOperationSource;
import dev.distlock.aop.LockedReactiveTransactionsAdvisor;
import dev.distlock.aop.LockedTransactions;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.DriverManagerDataSource;

class DistlockAutoConfigurationTests {

    // a closed port: nothing here may need a running Redis, beans are only created, never used against it
    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("spring.data.redis.port=1")
            .withConfiguration(AutoConfigurations.of(DataRedisAutoConfiguration.class, DistlockAutoConfiguration.class));

    @Test
    void aRedisConnectionFactoryGetsARedisLockRegistryAndTheAnnotationMachinery() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(RedisLockRegistry.class);
            assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
            assertThat(context).hasSingleBean(DistributedLockInterceptor.class);
            assertThat(context).hasSingleBean(LockOperationSource.class);
            assertThat(context.getBeanFactory().getBeanDefinition("distlockOperationSource").getRole())
                    .isEqualTo(BeanDefinition.ROLE_INFRASTRUCTURE);
            assertThat(context.getBean(RedisLockRegistry.class).keyOf("order:1")).isEqualTo("distlock:{order:1}");
        });
    }

    @Test
    void everyTransactionManagerFailsTheCommitOfALostLockUnlessTurnedOff() {
        ApplicationContextRunner transactions = runner.withUserConfiguration(OwnTransactionManager.class)
                .withConfiguration(AutoConfigurations.of(DistlockTransactionAutoConfiguration.class));
        transactions.run(context -> {
            assertThat(context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
                    .singleElement().isInstanceOf(LockedTransactions.class);
            assertThat(context).hasSingleBean(LockedReactiveTransactionsAdvisor.class);
        });
        transactions.withPropertyValues("distlock.transaction.rollback-on-loss=false").run(context -> {
            assertThat(context.getBean(DataSourceTransactionManager.class).getTransactionExecutionListeners())
                    .isEmpty();
            assertThat(context).doesNotHaveBean(LockedReactiveTransactionsAdvisor.class);
        });
    }

    @Test
    void twoConnectionFactoriesWithoutAPrimaryMakeTheRegistryBackOff() {
        runner.withUserConfiguration(TwoFactories.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(LockRegistry.class);
        });
    }

    @Test
    void aPrimaryConnectionFactoryAmongSeveralGetsTheRegistry() {
        runner.withUserConfiguration(TwoFactories.class, PrimaryFactory.class).run(context -> {
            assertThat(context).hasSingleBean(RedisLockRegistry.class);
            assertThat(context.getBean(DistlockAutoConfiguration.LISTENER_CONTAINER_BEAN,
                    RedisMessageListenerContainer.class).getConnectionFactory())
                    .isSameAs(context.getBean("primaryFactory"));
        });
    }

    @Test
    void builderCustomizersRunInTheirOrderAfterTheProperties() {
        runner.withPropertyValues("distlock.key-prefix=from-properties").withUserConfiguration(Customizers.class)
                .run(context -> {
                    assertThat(context.getBean(Customizers.class).calls).containsExactly("first", "second");
                    assertThat(context.getBean(RedisLockRegistry.class).keyOf("x")).isEqualTo("second:{x}");
                });
    }

    @Test
    void theRegistryHearsNoticesOnAContainerBeanThatStopsBeforeTheConnectionFactory() {
        runner.run(context -> {
            RedisMessageListenerContainer container = context.getBean(
                    DistlockAutoConfiguration.LISTENER_CONTAINER_BEAN, RedisMessageListenerContainer.class);
            SmartLifecycle factory = (SmartLifecycle) context.getBean(RedisConnectionFactory.class);
            // higher phases stop first
            assertThat(container.getPhase()).isEqualTo(DistlockAutoConfiguration.LISTENER_CONTAINER_PHASE)
                    .isGreaterThan(factory.getPhase());
            assertThat(container.isAutoStartup()).isTrue();
        });
    }

    @Test
    void anApplicationRegistryAlsoMakesTheListenerContainerBackOff() {
        runner.withUserConfiguration(OwnRegistry.class).run(context -> assertThat(context)
                .doesNotHaveBean(DistlockAutoConfiguration.LISTENER_CONTAINER_BEAN));
    }

    @Test
    void propertiesReachTheRegistryAndTheAdvisor() {
        runner.withPropertyValues("distlock.key-prefix=orders", "distlock.lease=45s", "distlock.advisor-order=7")
                .run(context -> {
                    RedisLockRegistry registry = context.getBean(RedisLockRegistry.class);
                    assertThat(registry.keyOf("x")).isEqualTo("orders:{x}");
                    assertThat(registry.getDefaultLease()).isEqualTo(Duration.ofSeconds(45));
                    assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(7);
                });
    }

    @Test
    void theAdvisorRunsOutsideTransactionsByDefault() {
        runner.run(context -> assertThat(context.getBean(DistributedLockAdvisor.class).getOrder())
                .isLessThan(Ordered.LOWEST_PRECEDENCE));
    }

    @Test
    void anApplicationRegistryReplacesTheAutoConfiguredOne() {
        runner.withUserConfiguration(OwnRegistry.class).run(context -> {
            assertThat(context).hasSingleBean(LockRegistry.class);
            assertThat(context.getBean(LockRegistry.class)).isSameAs(context.getBean("ownRegistry"));
        });
    }

    @Test
    void anApplicationAdvisorReplacesTheAutoConfiguredOne() {
        runner.withUserConfiguration(OwnAdvisor.class).run(context -> {
            assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
            assertThat(context.getBean(DistributedLockAdvisor.class).getOrder()).isEqualTo(42);
        });
    }

    @Test
    void theMemoryStoreIsUsedOnlyWhenAskedFor() {
        runner.withPropertyValues("distlock.store=memory").run(context -> {
            assertThat(context).hasSingleBean(LockRegistry.class);
            assertThat(context).hasSingleBean(InMemoryLockRegistry.class);
        });
    }

    @Test
    void withoutRedisThereIsNoRegistryUnlessMemoryIsAskedFor() {
        ApplicationContextRunner noRedis = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class));
        noRedis.run(context -> assertThat(context).doesNotHaveBean(LockRegistry.class));
        noRedis.withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
                .withPropertyValues("distlock.store=memory")
                .run(context -> assertThat(context).hasSingleBean(InMemoryLockRegistry.class));
    }

    @Test
    void annotatedMethodsWithoutAnyLockRegistryFailTheStartup() {
        new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class))
                .withUserConfiguration(Annotated.class)
                .run(context -> assertThat(context).hasFailed().getFailure()
                        .hasMessageContaining("Guarded.isLockedDuringCall")
                        .hasMessageContaining("there is no LockRegistry bean")
                        .hasMessageContaining("distlock.store=memory"));
    }

    @Test
    void enabledFalseTurnsEverythingOff() {
        runner.withPropertyValues("distlock.enabled=false").run(context -> {
            assertThat(context).doesNotHaveBean(LockRegistry.class);
            assertThat(context).doesNotHaveBean(DistributedLockAdvisor.class);
            assertThat(context).doesNotHaveBean(DistlockProperties.class);
        });
    }

    @Test
    void annotatedBeansAreProxiedWithoutTheAopStarter() {
        runner.withPropertyValues("distlock.store=memory").withUserConfiguration(Annotated.class).run(context -> {
            Guarded guarded = context.getBean(Guarded.class);
            LockRegistry registry = context.getBean(LockRegistry.class);
            assertThat(guarded.isLockedDuringCall(registry)).isTrue();
            assertThat(registry.obtain("guarded").isLocked()).isFalse();
        });
    }

    @Test
    void invalidPropertiesFailTheStartupNamingTheProperty() {
        assertStartupFails("distlock.key-prefix=a{b", "distlock.key-prefix", "must not contain '{' or '}'");
        assertStartupFails("distlock.key-prefix=a\uD800", "distlock.key-prefix", "must be valid UTF-16");
        assertStartupFails("distlock.wait-timeout=-1s", "distlock.wait-timeout", "must be zero (one try) or positive");
        assertStartupFails("distlock.lease=100ms", "distlock.lease", "between 300ms and 365 days when renewed");
        assertStartupFails("distlock.lease=0s", "distlock.lease", "between 300ms and 365 days when renewed");
        assertStartupFails("distlock.fence-retention=10s", "distlock.fence-retention", "at least distlock.lease");
        assertStartupFails("distlock.max-poll-interval=0ms", "distlock.max-poll-interval", "between 1ms and 1 hour");
        assertStartupFails("distlock.lease=400d", "distlock.lease", "between 300ms and 365 days");
        runner.withPropertyValues("distlock.lease=20ms", "distlock.renew-lease=false").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("distlock.lease")
                    .hasMessageContaining("between 100ms and 365 days (a shorter lease leaves an acquisition's "
                            + "reply too little time to count");
        });
        assertStartupFails("distlock.fence-retention=400d", "distlock.fence-retention", "between 1ms and 365 days");
        runner.withPropertyValues("distlock.lease=100ms", "distlock.renew-lease=false")
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void everyPropertyHasADescriptionForTheIde() throws Exception {
        try (InputStream metadata = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            List<Map<String, Object>> properties = JsonPath.read(metadata, "$.properties");
            assertThat(properties).extracting(property -> property.get("name")).contains("distlock.enabled",
                    "distlock.store", "distlock.key-prefix", "distlock.wait-timeout", "distlock.lease",
                    "distlock.renew-lease", "distlock.fence-retention", "distlock.max-poll-interval",
                    "distlock.advisor-order", "distlock.metrics.enabled", "management.health.distlock.enabled");
            assertThat(properties).allSatisfy(property -> assertThat(property.get("description"))
                    .as("description of %s", property.get("name")).isNotNull());
            assertThat(properties).filteredOn(property -> "distlock.fence-retention".equals(property.get("name")))
                    .singleElement().extracting(property -> (String) property.get("description"))
                    .asString().contains("after its release", "Redis server clock in microseconds");
        }
    }

    @Test
    void replicaAcknowledgementIsConfiguredFromPropertiesAndRefusedOnAClusterNamingTheProperty() {
        runner.withPropertyValues("distlock.replication.acks=1", "distlock.replication.ack-timeout=20ms")
                .run(context -> assertThat(context).hasSingleBean(RedisLockRegistry.class));
        assertStartupFails("distlock.replication.acks=-1", "distlock.replication.acks", "must be auto");
        assertStartupFails("distlock.replication.acks=all", "distlock.replication.acks", "0 (off) or a number");
        runner.withPropertyValues("distlock.replication.acks=AUTO", "distlock.replication.ack-timeout=20ms")
                .run(context -> assertThat(context).hasSingleBean(RedisLockRegistry.class));
        runner.withPropertyValues("distlock.replication.acks=0", "distlock.replication.ack-timeout=0ms")
                .run(context -> assertThat(context).as("no timeout without acknowledgement").hasNotFailed());
        runner.withPropertyValues("distlock.replication.ack-timeout=11s").run(context ->
                assertThat(context.getStartupFailure()).as("auto, the default, waits for the timeout").rootCause()
                        .hasMessageContaining("distlock.replication.ack-timeout").hasMessageContaining("between 1ms and 10s"));
        runner.withPropertyValues("spring.data.redis.cluster.nodes=127.0.0.1:1")
                .run(context -> assertThat(context).as("auto on a cluster: none to wait for").hasNotFailed());
        runner.withPropertyValues("distlock.replication.acks=1", "distlock.replication.ack-timeout=0ms").run(context ->
                assertThat(context.getStartupFailure()).rootCause()
                        .hasMessageContaining("distlock.replication.ack-timeout").hasMessageContaining("between 1ms and 10s"));
        runner.withPropertyValues("distlock.replication.acks=1", "spring.data.redis.cluster.nodes=127.0.0.1:1")
                .run(context -> {
                    assertThat(context).hasFailed();
                    assertThat(context.getStartupFailure()).rootCause().hasMessageContaining("distlock.replication.acks")
                            .hasMessageContaining("not supported on Redis Cluster");
                });
    }

    private void assertStartupFails(String property, String name, String reason) {
        runner.withPropertyValues(property).run(context -> {
            assertThat(context).as(property).hasFailed();
            assertThat(context.getStartupFailure()).as(property).rootCause()
                    .hasMessageContaining(name).hasMessageContaining(reason);
        });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnTransactionManager {

        @Bean
        DataSourceTransactionManager transactionManager() {
            return new DataSourceTransactionManager(new DriverManagerDataSource("jdbc:h2:mem:unused"));
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoFactories {

        @Bean
        LettuceConnectionFactory firstFactory() {
            return new LettuceConnectionFactory("localhost", 1);
        }

        @Bean
        LettuceConnectionFactory secondFactory() {
            return new LettuceConnectionFactory("localhost", 1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryFactory {

        @Bean
        @Primary
        LettuceConnectionFactory primaryFactory() {
            return new LettuceConnectionFactory("localhost", 1);
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Customizers {

        final List<String> calls = new ArrayList<>();

        @Bean
        @Order(2)
        RedisLockRegistryBuilderCustomizer second() {
            return builder -> {
                calls.add("second");
                builder.keyPrefix("second");
            };
        }

        @Bean
        @Order(1)
        RedisLockRegistryBuilderCustomizer first() {
            return builder -> {
                calls.add("first");
                builder.keyPrefix("first");
            };
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistry {

        @Bean(destroyMethod = "close")
        InMemoryLockRegistry ownRegistry() {
            return InMemoryLockRegistry.builder().build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnAdvisor {

        @Bean
        static DistributedLockAdvisor ownAdvisor(DistributedLockInterceptor interceptor) {
            DistributedLockAdvisor advisor = new DistributedLockAdvisor(interceptor);
            advisor.setOrder(42);
            return advisor;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Annotated {

        @Bean
        Guarded guarded() {
            return new Guarded();
        }
    }

    static class Guarded {

        @DistributedLock(name = "guarded")
        boolean isLockedDuringCall(LockRegistry registry) {
            return registry.obtain("guarded").isLocked();
        }
    }
}
