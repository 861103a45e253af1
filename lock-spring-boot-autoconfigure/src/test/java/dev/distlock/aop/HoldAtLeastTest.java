package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** {@code holdAtLeast}: the lock outlives a method that returns sooner, then frees itself. */
class HoldAtLeastTest {

    private AnnotationConfigApplicationContext context;
    private Jobs jobs;
    private LockRegistry registry;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        jobs = context.getBean(Jobs.class);
        registry = context.getBean(LockRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void theLockStaysTakenAfterAQuickMethodReturnsButNotByTheCallingThread() {
        jobs.hourly();

        assertThat(registry.obtain("hourly").isLocked()).isTrue();
        assertThat(registry.obtain("hourly").isHeldByCurrentThread()).isFalse();
        assertThat(registry.heldLocks()).isEmpty();
        assertThat(jobs.hourlyIfFree()).isFalse(); // the next run, on any instance, skips
    }

    @Test
    void theMinimumAlsoHoldsWhenTheMethodThrows() {
        assertThatThrownBy(jobs::hourlyFailing).hasMessage("job failed");

        assertThat(registry.obtain("hourly-failing").isLocked()).isTrue();
    }

    @Test
    void anAsynchronousResultKeepsTheLockTakenAfterItCompletes() throws Exception {
        jobs.hourlyAsync().get(10, TimeUnit.SECONDS);

        assertThat(registry.obtain("hourly-async").isLocked()).isTrue();
    }

    @Test
    void theLockFreesItselfWhenTheMinimumIsOver() throws Exception {
        jobs.brief();
        assertThat(registry.obtain("brief").isLocked()).isTrue();

        assertThat(registry.obtain("brief").tryLock(Duration.ofSeconds(30))).isTrue();
        registry.obtain("brief").unlock();
    }

    @Test
    void withoutAMinimumTheLockIsReleasedAtReturn() {
        jobs.plain();

        assertThat(registry.obtain("plain").isLocked()).isFalse();
    }

    static class Jobs {

        @DistributedLock(name = "hourly", holdAtLeast = "1h")
        public void hourly() {
        }

        @DistributedLock(name = "hourly", timeout = "0", onTimeout = DistributedLock.TimeoutAction.SKIP)
        public boolean hourlyIfFree() {
            return true;
        }

        @DistributedLock(name = "hourly-failing", holdAtLeast = "PT1H")
        public void hourlyFailing() {
            throw new IllegalStateException("job failed");
        }

        @DistributedLock(name = "hourly-async", holdAtLeast = "1h")
        public CompletableFuture<Void> hourlyAsync() {
            return CompletableFuture.runAsync(() -> { });
        }

        @DistributedLock(name = "brief", holdAtLeast = "300ms")
        public void brief() {
        }

        @DistributedLock(name = "plain")
        public void plain() {
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        Jobs jobs() {
            return new Jobs();
        }
    }
}
