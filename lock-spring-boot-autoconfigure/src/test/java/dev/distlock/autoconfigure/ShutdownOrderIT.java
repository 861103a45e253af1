package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
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
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Closing the application stops the registry's pub/sub connection while Redis is still reachable: the
 * shutdown logs no warning or error (Lettuce used to warn "Connection is already closed").
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ShutdownOrderIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void anApplicationWhoseRegistryHasWaitedShutsDownWithACleanLog(CapturedOutput output) throws Exception {
        ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off")
                .run();
        LockRegistry registry = context.getBean(LockRegistry.class);
        // another process holds the lock, so that this one's waiter queues in Redis, not locally
        RedisLockRegistry otherProcess = RedisLockRegistry.builder(context.getBean(RedisConnectionFactory.class))
                .build();
        FencedLock held = otherProcess.obtain("shutdown");
        held.lock();
        CountDownLatch waiting = new CountDownLatch(1);
        CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
            FencedLock lock = registry.obtain("shutdown");
            waiting.countDown();
            try {
                boolean acquired = lock.tryLock(Duration.ofSeconds(60));
                lock.unlock();
                return acquired;
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return false;
            }
        });
        assertThat(waiting.await(30, TimeUnit.SECONDS)).isTrue();
        // the waiter subscribes the registry's channel and queues in Redis, then the release hands over
        awaitQueued();
        held.unlock();
        assertThat(waiter.get(60, TimeUnit.SECONDS)).isTrue();
        otherProcess.close();
        int before = output.length();

        context.close();

        String shutdown = output.toString().substring(before);
        assertThat(shutdown).doesNotContain("already closed").doesNotContain(" WARN ").doesNotContain(" ERROR ")
                .doesNotContain("Exception");
    }

    /** Waits until some process is queued for the lock, i.e. the waiter has subscribed and queued. */
    private static void awaitQueued() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (((Number) redis.server().command("EXISTS", "distlock:{shutdown}:queue")).longValue() == 0) {
            assertThat(System.nanoTime()).as("waiter queued in time").isLessThan(deadline);
            Thread.sleep(5); // polling Redis state, not synchronising threads
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {
    }
}
