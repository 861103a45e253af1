package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.Mockito.mock;

import dev.distlock.actuate.DistlockHealthIndicator;
import dev.distlock.actuate.DistlocksEndpoint;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

class DistlockActuatorAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("management.endpoints.web.exposure.include=distlocks")
            .withConfiguration(AutoConfigurations.of(DistlockActuatorAutoConfiguration.class,
                    DistlockHealthAutoConfiguration.class));

    @Test
    void leavesTheEndpointOutWhenItIsNotExposed() {
        runner.with(this::lockRegistryAndRedis).withPropertyValues("management.endpoints.web.exposure.include=health")
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlocksEndpoint.class));
    }

    @Test
    void providesTheEndpointAndTheHealthIndicatorNamedDistlock() {
        runner.with(this::lockRegistryAndRedis).run(context -> {
            assertThat(context).hasSingleBean(DistlocksEndpoint.class);
            assertThat(context).hasSingleBean(DistlockHealthIndicator.class);
            // the health contributor's name is the bean name less "HealthIndicator"
            assertThat(context).hasBean("distlockHealthIndicator");
        });
    }

    @Test
    void backsOffWithoutALockRegistry() {
        runner.with(this::redis)
                .run(context -> assertThat(context).doesNotHaveBean(DistlocksEndpoint.class)
                        .doesNotHaveBean(DistlockHealthIndicator.class));
    }

    @Test
    void leavesTheEndpointOutWhenActuatorIsNotOnTheClassPath() {
        runner.with(this::lockRegistryAndRedis).withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlocksEndpoint.class)
                        .hasSingleBean(DistlockHealthIndicator.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWhenSpringBootHealthIsNotOnTheClassPath() {
        runner.with(this::lockRegistryAndRedis).withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlockHealthIndicator.class)
                        .hasSingleBean(DistlocksEndpoint.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWhenSpringDataRedisIsNotOnTheClassPath() {
        runner.with(this::lockRegistryAndRedis).withClassLoader(new FilteredClassLoader(RedisConnectionFactory.class))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(DistlockHealthIndicator.class)
                        .hasSingleBean(DistlocksEndpoint.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWithoutARedisConnectionFactory() {
        runner.with(this::lockRegistry)
                .run(context -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class)
                        .hasSingleBean(DistlocksEndpoint.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWhenLocksLiveInMemory() {
        runner.with(this::lockRegistryAndRedis).withPropertyValues("distlock.store=memory")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class)
                        .hasSingleBean(DistlocksEndpoint.class));
    }

    @Test
    void keepsTheHealthIndicatorWhenTheStoreIsSpelledInCapitals() {
        runner.with(this::lockRegistryAndRedis).withPropertyValues("distlock.store=REDIS")
                .run(context -> assertThat(context).hasSingleBean(DistlockHealthIndicator.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWhenItIsTurnedOff() {
        runner.with(this::lockRegistryAndRedis).withPropertyValues("management.health.distlock.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class));
    }

    @Test
    void leavesTheHealthIndicatorOutWhenHealthIndicatorsAreOffByDefault() {
        runner.with(this::lockRegistryAndRedis).withPropertyValues("management.health.defaults.enabled=false")
                .run(context -> assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class));
    }

    @Test
    void usesTheApplicationsOwnEndpointAndHealthIndicator() {
        DistlocksEndpoint endpoint = new DistlocksEndpoint(Map.of());
        HealthIndicator health = () -> Health.up().build();
        runner.with(this::lockRegistryAndRedis).withBean(DistlocksEndpoint.class, () -> endpoint)
                .withBean("distlockHealthIndicator", HealthIndicator.class, () -> health)
                .run(context -> {
                    assertThat(context).getBean(DistlocksEndpoint.class).isSameAs(endpoint);
                    assertThat(context).doesNotHaveBean(DistlockHealthIndicator.class);
                    assertThat(context).getBean("distlockHealthIndicator").isSameAs(health);
                });
    }

    @Test
    void theEndpointListsTheHoldsOfEveryLockRegistry() {
        runner.with(this::lockRegistryAndRedis).withBean("jobRegistry", LockRegistry.class, () -> InMemoryLockRegistry.builder().build())
                .run(context -> {
                    context.getBean("jobRegistry", LockRegistry.class).obtain("nightly").lock();
                    context.getBean("lockRegistry", LockRegistry.class).obtain("order:1").lock();
                    assertThat(context.getBean(DistlocksEndpoint.class).locks().locks())
                            .extracting(lock -> lock.registry() + "/" + lock.name())
                            .containsExactly("jobRegistry/nightly", "lockRegistry/order:1");
                });
    }

    private ApplicationContextRunner lockRegistry(ApplicationContextRunner runner) {
        return runner.withBean("lockRegistry", LockRegistry.class, () -> InMemoryLockRegistry.builder().build());
    }

    private ApplicationContextRunner redis(ApplicationContextRunner runner) {
        return runner.withBean(RedisConnectionFactory.class, () -> mock(RedisConnectionFactory.class));
    }

    private ApplicationContextRunner lockRegistryAndRedis(ApplicationContextRunner runner) {
        return redis(lockRegistry(runner));
    }
}
