package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * ShedLock's use: one job scheduled on two instances (two application contexts on one real redis-server)
 * whose clocks are 300ms apart. With {@code holdAtLeast} it runs once per period; without, twice.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ScheduledJobIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration PERIOD = Duration.ofMillis(1000);
    private static final Duration HOLD_AT_LEAST = Duration.ofMillis(800);
    private static final Duration SKEW = Duration.ofMillis(300);
    private static final int RUNS = 6;

    /** Start times of the job's runs on either instance, in this JVM's nanoTime. */
    static final List<Long> runs = new ArrayList<>();
    static volatile CountDownLatch enoughRuns;

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void withHoldAtLeastTheJobRunsOncePerPeriodAcrossInstances() throws Exception {
        List<Long> gaps = runOnTwoInstances(HOLD_AT_LEAST.toMillis() + "ms");

        // the next run starts when the held minimum has expired in Redis: never sooner (ms rounding aside)
        assertThat(gaps).allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(HOLD_AT_LEAST.toMillis() - 20));
    }

    @Test
    void withoutHoldAtLeastTheSkewedInstanceRunsTheJobAgainInTheSamePeriod() throws Exception {
        List<Long> gaps = runOnTwoInstances("0");

        // the control: the same setup runs twice per period, so the test above can fail
        assertThat(gaps).anySatisfy(gap -> assertThat(gap).isLessThan(PERIOD.toMillis() - SKEW.toMillis() + 100));
    }

    /** Starts both instances, waits for {@value #RUNS} runs, returns the milliseconds between runs. */
    private List<Long> runOnTwoInstances(String holdAtLeast) throws InterruptedException {
        synchronized (runs) {
            runs.clear();
        }
        enoughRuns = new CountDownLatch(RUNS);
        instances.add(start(holdAtLeast, 0));
        instances.add(start(holdAtLeast, SKEW.toMillis()));
        assertThat(enoughRuns.await(60, TimeUnit.SECONDS)).as("%s runs within a minute", RUNS).isTrue();
        instances.forEach(ConfigurableApplicationContext::close);
        instances.clear();
        List<Long> gaps = new ArrayList<>();
        synchronized (runs) {
            for (int i = 1; i < runs.size(); i++) {
                gaps.add(TimeUnit.NANOSECONDS.toMillis(runs.get(i) - runs.get(i - 1)));
            }
        }
        assertThat(gaps).hasSizeGreaterThanOrEqualTo(RUNS - 1);
        return gaps;
    }

    private static ConfigurableApplicationContext start(String holdAtLeast, long initialDelay) {
        return new SpringApplicationBuilder(Instance.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off",
                        "job.period=" + PERIOD.toMillis(), "job.initial-delay=" + initialDelay,
                        "job.hold-at-least=" + holdAtLeast)
                .run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    static class Instance {

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {

        @Scheduled(fixedRateString = "${job.period}", initialDelayString = "${job.initial-delay}")
        @DistributedLock(name = "report", timeout = "0", onTimeout = TimeoutAction.SKIP,
                holdAtLeast = "${job.hold-at-least}")
        public void run() {
            synchronized (runs) {
                runs.add(System.nanoTime());
            }
            enoughRuns.countDown();
        }
    }
}
