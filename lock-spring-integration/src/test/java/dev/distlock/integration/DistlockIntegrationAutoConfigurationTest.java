package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import java.io.InputStream;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collections;
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
                assertThat(((DistlockIntegrationLock) lock).fencedLock().remainingLease())
                        .isGreaterThan(Duration.ofSeconds(40));
            } finally {
                lock.unlock();
            }
        });
    }

    @Test
    void springIntegrationsExpiringLocksAreChosenByAPropertyWithATimeToLiveOfTheirOwn() {
        runner.withPropertyValues("distlock.integration.lease-mode=expiring", "distlock.integration.expire-after=5s")
                .run(context -> {
                    DistlockIntegrationLockRegistry registry = context.getBean(DistlockIntegrationLockRegistry.class);
                    assertThat(registry.leaseMode()).isEqualTo(LeaseMode.EXPIRING);
                    assertThat(registry.expireAfter()).isEqualTo(Duration.ofSeconds(5));
                });
        runner.run(context -> assertThat(context.getBean(DistlockIntegrationLockRegistry.class).leaseMode())
                .isEqualTo(LeaseMode.RENEWED));
    }

    @Test
    void theLeaseModeIsDescribedToIdes() throws Exception {
        StringBuilder all = new StringBuilder(); // each module on the class path has its own
        for (URL metadata : Collections.list(getClass().getClassLoader()
                .getResources("META-INF/spring-configuration-metadata.json"))) {
            try (InputStream in = metadata.openStream()) {
                all.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
            }
        }
        assertThat(all.toString()).contains("\"distlock.integration.lease-mode\"",
                "\"distlock.integration.expire-after\"", "as Spring Integration's RedisLockRegistry");
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
