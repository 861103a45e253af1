package dev.distlock.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.actuate.DistlocksEndpoint.HeldLockDescriptor;
import dev.distlock.autoconfigure.DistlockActuatorAutoConfiguration;
import dev.distlock.autoconfigure.DistlockHealthAutoConfiguration;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/** The endpoint and the health indicator in an application on Spring Boot's Redis auto-configuration. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistlockActuatorIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistlockActuatorAutoConfiguration.class,
                    DistlockHealthAutoConfiguration.class, DataRedisAutoConfiguration.class))
            .withUserConfiguration(RegistryConfiguration.class);

    @Test
    void theEndpointShowsTheRedisKeyOfEachHoldAndTheHealthIsUp() {
        runner.withPropertyValues("management.endpoints.web.exposure.include=distlocks",
                "spring.data.redis.host=" + redis.server().host(),
                "spring.data.redis.port=" + redis.server().port()).run(context -> {
                    FencedLock lock = context.getBean(RedisLockRegistry.class)
                            .obtain("order:42", Lease.renewed(), "OrderService.pay");
                    lock.lock();
                    try {
                        List<HeldLockDescriptor> locks = context.getBean(DistlocksEndpoint.class).locks().locks();

                        assertThat(locks).singleElement().satisfies(held -> {
                            assertThat(held.registry()).isEqualTo("lockRegistry");
                            assertThat(held.key()).isEqualTo("app:{order:42}");
                            assertThat(held.label()).isEqualTo("OrderService.pay");
                            assertThat(held.fencingToken()).isEqualTo(lock.fencingToken());
                            assertThat(held.remainingLeaseMillis()).isPositive();
                        });
                        assertThat(redis.server().command("EXISTS", locks.get(0).key())).isEqualTo(1L);
                    } finally {
                        lock.unlock();
                    }
                    Health health = context.getBean(DistlockHealthIndicator.class).health();
                    assertThat(health.getStatus()).isEqualTo(Status.UP);
                    assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", "noeviction");
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class RegistryConfiguration {

        @Bean
        RedisLockRegistry lockRegistry(RedisConnectionFactory connectionFactory) {
            return RedisLockRegistry.builder(connectionFactory).keyPrefix("app").build();
        }
    }
}
