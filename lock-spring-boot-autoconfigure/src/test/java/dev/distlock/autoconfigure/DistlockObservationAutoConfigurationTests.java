package dev.distlock.autoconfigure;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.aop.LockCallObserver;
import dev.distlock.micrometer.ObservationLockCallObserver;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

class DistlockObservationAutoConfigurationTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("distlock.store=memory")
            .withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class,
                    DistlockAutoConfiguration.class, DistlockObservationAutoConfiguration.class))
            .withUserConfiguration(Jobs.class);

    @Test
    void annotatedCallsAreObservedOnTheApplicationsObservationRegistry() {
        runner.run(context -> {
            context.getBean(Job.class).run();

            TestObservationRegistry registry = context.getBean(TestObservationRegistry.class);
            assertThat(registry).hasObservationWithNameEqualTo("distlock.acquisition").that()
                    .hasLowCardinalityKeyValue("lock", "nightly").hasLowCardinalityKeyValue("outcome", "acquired");
            assertThat(registry).hasObservationWithNameEqualTo("distlock.hold").that()
                    .hasLowCardinalityKeyValue("outcome", "released").hasHighCardinalityKeyValue("distlock.key", "nightly");
        });
    }

    @Test
    void springBootsObservationSwitchTurnsThemOff() {
        runner.withPropertyValues("management.observations.enable.distlock=false").run(context -> {
            context.getBean(Job.class).run();

            assertThat(context.getBean(TestObservationRegistry.class)).doesNotHaveAnyObservation();
        });
    }

    @Test
    void backsOffWithoutAnObservationRegistryOrMicrometer() {
        ApplicationContextRunner withoutRegistry = new ApplicationContextRunner()
                .withPropertyValues("distlock.store=memory").withConfiguration(AutoConfigurations.of(
                        DistlockAutoConfiguration.class, DistlockObservationAutoConfiguration.class));
        withoutRegistry.run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(LockCallObserver.class));
        withoutRegistry.withClassLoader(new FilteredClassLoader("io.micrometer.observation"))
                .run(context -> assertThat(context).hasNotFailed().doesNotHaveBean(ObservationLockCallObserver.class));
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {

        @DistributedLock(name = "nightly", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public void run() {
        }
    }
}
