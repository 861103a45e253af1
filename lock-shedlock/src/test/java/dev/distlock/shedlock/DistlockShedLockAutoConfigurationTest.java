package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import java.util.Optional;
import net.javacrumbs.shedlock.core.ExtensibleLockProvider;
import net.javacrumbs.shedlock.core.LockProvider;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** ShedLock's lock provider is distlock's when there is a distlock registry and no other provider. */
class DistlockShedLockAutoConfigurationTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("distlock.store=memory")
            .withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class,
                    DistlockShedLockAutoConfiguration.class));

    @Test
    void shedLockLocksThroughDistlock() {
        runner.run(context -> assertThat(context).getBean(LockProvider.class)
                .isInstanceOf(DistlockLockProvider.class));
    }

    @Test
    void theProviderCanBeExtendedAndKeptAlive() {
        runner.run(context -> assertThat(context).getBean(ExtensibleLockProvider.class)
                .isInstanceOf(DistlockLockProvider.class));
    }

    @Test
    void anApplicationsOwnProviderStays() {
        runner.withUserConfiguration(OwnProvider.class).run(context -> assertThat(context)
                .getBean(LockProvider.class).isNotInstanceOf(DistlockLockProvider.class));
    }

    @Test
    void withoutADistlockRegistryNothingIsAdded() {
        runner.withPropertyValues("distlock.enabled=false").run(context -> assertThat(context)
                .doesNotHaveBean(LockProvider.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnProvider {

        @Bean
        LockProvider ownProvider() {
            return configuration -> Optional.empty();
        }
    }
}
