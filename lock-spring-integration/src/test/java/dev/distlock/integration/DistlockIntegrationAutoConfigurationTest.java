package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import dev.distlock.core.FencedLock;
import java.time.Duration;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

/** Spring Integration's lock registry is distlock's when there is a distlock registry and no other. */
class DistlockIntegrationAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("distlock.store=memory", "distlock.lease=45s")
            .withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class,
                    DistlockIntegrationAutoConfiguration.class));

    @Test
    void springIntegrationLocksThroughDistlockWithTheLeaseOfItsProperty() {
        runner.run(context -> {
            assertThat(context).getBean(LockRegistry.class).isInstanceOf(DistlockIntegrationLockRegistry.class);
            LockRegistry<?> registry = context.getBean(LockRegistry.class);
            Lock lock = registry.obtain("job");
            lock.lock();
            try {
                assertThat(((FencedLock) lock).remainingLease())
                        .isGreaterThan(Duration.ofSeconds(40));
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void anApplicationsOwnLockRegistryStays() {
        runner.withUserConfiguration(OwnRegistry.class).run(context -> assertThat(context)
                .getBean(LockRegistry.class).isInstanceOf(DefaultLockRegistry.class));
    }

    @Test
    void withoutADistlockRegistryNothingIsAdded() {
        runner.withPropertyValues("distlock.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(LockRegistry.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnRegistry {

        @Bean
        DefaultLockRegistry ownRegistry() {
            return new DefaultLockRegistry();
        }
    }
}
