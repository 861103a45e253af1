package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.micrometer.DistlockMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import reactor.core.publisher.Mono;

/**
 * A busy lock of an {@code onTimeout = SKIP} call is counted as a skip, by the call; its wait, like a FAIL call's, is
 * a timeout of the registry.
 */
class SkippedCallMetricsTest {

    private AnnotationConfigApplicationContext context;
    private MeterRegistry meters;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        meters = context.getBean(MeterRegistry.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void aSkippedCallIsRecordedAsSkippedAndAFailedOneAsTimeout() throws Exception {
        Job job = context.getBean(Job.class);
        FencedLock other = context.getBean(LockRegistry.class).obtain("job");
        Thread holder = new Thread(other::lock);
        holder.start();
        holder.join();

        assertThat(job.runIfFree()).isNull();
        assertThatThrownBy(job::runOrFail).isInstanceOf(LockAcquisitionTimeoutException.class);

        assertThat(skipped()).isEqualTo(1);
        assertThat(count("timeout")).isEqualTo(2);
    }

    /** A Mono call acquires without blocking and ends on a registry thread: the meters still tell skip from fail. */
    @Test
    void aSkippedMonoCallIsRecordedAsSkippedAndAFailedOneAsTimeout() throws Exception {
        Job job = context.getBean(Job.class);
        FencedLock other = context.getBean(LockRegistry.class).obtain("job");
        Thread holder = new Thread(other::lock);
        holder.start();
        holder.join();

        assertThat(job.monoIfFree().blockOptional(Duration.ofSeconds(10))).isEmpty();
        assertThatThrownBy(() -> job.monoOrFail().block(Duration.ofSeconds(10)))
                .isInstanceOf(LockAcquisitionTimeoutException.class);

        assertThat(skipped()).isEqualTo(1);
        assertThat(count("timeout")).isEqualTo(2);
    }

    @Test
    void theAcquireTimerHasNoSkippedOutcome() {
        assertThat(meters.find(DistlockMetrics.ACQUIRE).tag(DistlockMetrics.OUTCOME_TAG, "skipped").timers()).isEmpty();
    }

    private double skipped() {
        return meters.get(DistlockMetrics.SKIPPED).tag(DistlockMetrics.LOCK_TAG, "job").counter().count();
    }

    private long count(String outcome) {
        return meters.get(DistlockMetrics.ACQUIRE).tag(DistlockMetrics.LOCK_TAG, "job")
                .tag(DistlockMetrics.OUTCOME_TAG, outcome).timer().count();
    }

    static class Job {

        @DistributedLock(name = "job", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public String runIfFree() {
            return "ran";
        }

        @DistributedLock(name = "job", timeout = "0")
        public String runOrFail() {
            return "ran";
        }

        @DistributedLock(name = "job", timeout = "0", onTimeout = TimeoutAction.SKIP)
        public Mono<String> monoIfFree() {
            return Mono.just("ran");
        }

        @DistributedLock(name = "job", timeout = "0")
        public Mono<String> monoOrFail() {
            return Mono.just("ran");
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean
        SimpleMeterRegistry meterRegistry() {
            return new SimpleMeterRegistry();
        }

        @Bean
        DistlockMetrics distlockMetrics(MeterRegistry meterRegistry) {
            return new DistlockMetrics(meterRegistry);
        }

        @Bean
        LockCallObserver distlockSkippedCalls(DistlockMetrics metrics) {
            return metrics.skippedCalls();
        }

        @Bean
        Job job() {
            return new Job();
        }
    }
}
