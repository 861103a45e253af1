package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Closing an application that still holds locks gives them back to Redis before its connection stops: another
 * process waiting for them gets them at once, not when their 30 s lease runs out, and the shutdown logs no error.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class GracefulShutdownIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void closingTheApplicationGivesItsHoldsBackToAProcessWaitingForThem(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off",
                        "distlock.lease=30s")
                .run();
        LockRegistry registry = context.getBean(LockRegistry.class);
        FencedLock blocking = registry.obtain("job");
        blocking.lock(); // held by the test's thread, as by a method still running
        DetachedLock detached = registry.obtain("leader").tryLockAsync(Duration.ZERO).toCompletableFuture()
                .get(30, TimeUnit.SECONDS);
        assertThat(detached).isNotNull();

        LettuceConnectionFactory otherConnection = new LettuceConnectionFactory("127.0.0.1", redis.server().port());
        otherConnection.afterPropertiesSet();
        otherConnection.start();
        try (RedisLockRegistry otherProcess = RedisLockRegistry.builder(otherConnection).build()) {
            // waits shorter than the holds' lease: only a give-back lets it in
            CompletableFuture<Boolean> job = waitFor(otherProcess, "job");
            CompletableFuture<Boolean> leader = waitFor(otherProcess, "leader");
            int before = output.length();

            context.close();

            assertThat(job.get(60, TimeUnit.SECONDS)).as("'job' given back").isTrue();
            assertThat(leader.get(60, TimeUnit.SECONDS)).as("'leader' given back").isTrue();
            assertThat(blocking.isHeldByCurrentThread()).isFalse();
            assertThatThrownBy(blocking::unlock).isInstanceOf(LockLostException.class)
                    .hasMessageContaining("registry was closed");
            assertThat(detached.isHeld()).isFalse();
            String shutdown = output.toString().substring(before);
            assertThat(shutdown).doesNotContain(" ERROR ").doesNotContain("STOPPING");
        } finally {
            otherConnection.destroy();
        }
    }

    /** {@code name} taken by {@code registry} within 20 s (less than the 30 s lease), and given back. */
    private static CompletableFuture<Boolean> waitFor(RedisLockRegistry registry, String name) {
        return CompletableFuture.supplyAsync(() -> {
            FencedLock lock = registry.obtain(name);
            try {
                boolean acquired = lock.tryLock(Duration.ofSeconds(20));
                if (acquired) {
                    lock.unlock();
                }
                return acquired;
            } catch (InterruptedException interrupted) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
