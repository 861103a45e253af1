package dev.distlock.aspectj.loadtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.fail;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.LockContext;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Load-time weaving: this class and its job are compiled by javac and woven by the aspectjweaver agent (surefire's
 * argLine) as they load, as {@code META-INF/aop.xml} says; lock-aspectj's auto-configuration configures the aspect.
 */
class LoadTimeWeavingTest {

    @Test
    void aWovenCallBeforeAnyApplicationContextIsRefusedRatherThanRunUnlocked() {
        assertThatIllegalStateException().isThrownBy(() -> new Job().run(() -> fail("ran without its lock")))
                .withMessageContaining(Job.class.getName() + ".locked").withMessageContaining("refused");
    }

    @Test
    void aPrivateMethodCalledByItsBeanIsLockedAndTheAdvisorBacksOff() throws Exception {
        try (ConfigurableApplicationContext context = new SpringApplicationBuilder(App.class)
                .properties("distlock.store=memory", "distlock.advice-mode=aspectj", "spring.main.banner-mode=off")
                .run()) {
            assertThat(context.getBeanProvider(DistributedLockAdvisor.class).getIfAvailable()).isNull();
            Job job = context.getBean(Job.class);
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            CompletableFuture<String> holder = CompletableFuture.supplyAsync(() -> job.run(() -> {
                entered.countDown();
                awaitQuietly(leave);
            }));
            try {
                assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(job.run(() -> fail("ran while the lock was held"))).as("skipped").isNull();
            } finally {
                leave.countDown();
            }
            assertThat(holder.get(10, TimeUnit.SECONDS)).isEqualTo("job");
        }
    }

    private static void awaitQuietly(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {

        /** Runs {@code work} under the job's lock; {@code null} when another call holds it. */
        String run(Runnable work) {
            return locked(work);
        }

        @DistributedLock(name = "job", timeout = "0", onTimeout = TimeoutAction.SKIP)
        private String locked(Runnable work) {
            work.run();
            return LockContext.current().key();
        }
    }
}
