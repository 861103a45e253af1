package dev.distlock.aop;

import static io.micrometer.observation.tck.TestObservationRegistryAssert.assertThat;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.micrometer.ObservationLockCallObserver;
import io.micrometer.observation.tck.TestObservationRegistry;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;

/** The acquire observation of an annotated call tells how its wait ended, as the low-cardinality key wait.end. */
class WaitEndObservationTest {

    private AnnotationConfigApplicationContext context;
    private TestObservationRegistry observations;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        observations = context.getBean(TestObservationRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void aCallWhoseFirstTryGetsTheLockIsImmediate() {
        assertThat(context.getBean(Job.class).run()).isEqualTo("ran");

        assertThat(observations).hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasLowCardinalityKeyValue("outcome", "acquired").hasLowCardinalityKeyValue("wait.end", "immediate");
        assertThat(observations).hasObservationWithNameEqualTo("distlock.hold").that()
                .doesNotHaveLowCardinalityKeyValueWithKey("wait.end");
    }

    @Test
    void aCallLetInByAReleaseOfTheSameRegistryIsALocalHandOff() throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Void> holder = CompletableFuture.runAsync(() -> {
            FencedLock other = context.getBean(LockRegistry.class).obtain("job");
            other.lock();
            held.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            } finally {
                other.unlock();
            }
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        CompletableFuture<String> call = new CompletableFuture<>();
        Thread caller = new Thread(() -> call.complete(context.getBean(Job.class).run()), "caller");
        caller.start();
        // the call waits at the name behind the holder (parked: its wait is a pending future)
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (caller.getState() != Thread.State.WAITING && caller.getState() != Thread.State.TIMED_WAITING) {
            assertThat(System.nanoTime() - deadline).as("the caller waits in time").isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
        }

        release.countDown();

        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("ran");
        holder.get(10, TimeUnit.SECONDS);
        assertThat(observations).hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasLowCardinalityKeyValue("outcome", "acquired")
                .hasLowCardinalityKeyValue("wait.end", "local-hand-off");
    }

    @Test
    void aCallWithoutTheLockTellsNone() throws Exception {
        FencedLock other = context.getBean(LockRegistry.class).obtain("job");
        CompletableFuture.runAsync(other::lock).get(10, TimeUnit.SECONDS);

        assertThat(context.getBean(Job.class).runIfFree()).isNull();

        assertThat(observations).hasObservationWithNameEqualTo("distlock.acquisition").that()
                .hasLowCardinalityKeyValue("outcome", "skipped").hasLowCardinalityKeyValue("wait.end", "none");
    }

    static class Job {

        @DistributedLock(name = "job", timeout = "20s")
        public String run() {
            return "ran";
        }

        @DistributedLock(name = "job", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public String runIfFree() {
            return "ran";
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        TestObservationRegistry observationRegistry() {
            return TestObservationRegistry.create();
        }

        @Bean
        LockCallObserver observations(TestObservationRegistry observationRegistry) {
            return new ObservationLockCallObserver(observationRegistry, null, null);
        }

        @Bean
        Job job() {
            return new Job();
        }
    }
}
