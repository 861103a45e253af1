package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * ShedLock's own use, unchanged: one {@code @SchedulerLock} job scheduled every second on two instances (two Spring
 * Boot applications on one real redis-server, their schedules 300 ms apart), ShedLock's provider being distlock's.
 * With {@code lockAtLeastFor} the job runs once per period across both; the same two schedules without a lock would
 * run it twice, 300 and 700 ms apart.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class SchedulerLockIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration PERIOD = Duration.ofMillis(1000);
    private static final Duration AT_LEAST = Duration.ofMillis(800);
    private static final int RUNS = 6;
    /**
     * Before the first run, each instance locks once (its first Redis connection): ShedLock counts lockAtLeastFor from
     * the lock's creation, so a cold first acquisition would start that run late and shorten the gap after it.
     */
    private static final long WARM_UP = 2000;

    /** Start times of the job's runs on either instance, in this JVM's nanoTime. */
    static final List<Long> runs = new ArrayList<>();
    static volatile CountDownLatch enoughRuns;

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void theJobRunsOncePerPeriodAcrossBothInstancesOnDistlock() throws Exception {
        enoughRuns = new CountDownLatch(RUNS);
        instances.add(start(WARM_UP));
        instances.add(start(WARM_UP + 300));
        assertThat(instances).allSatisfy(instance -> assertThat(instance.getBean(LockProvider.class))
                .isInstanceOf(DistlockLockProvider.class));

        assertThat(enoughRuns.await(60, TimeUnit.SECONDS)).as("%s runs within a minute", RUNS).isTrue();
        instances.forEach(ConfigurableApplicationContext::close);
        List<Long> gaps = new ArrayList<>();
        synchronized (runs) {
            for (int i = 1; i < runs.size(); i++) {
                gaps.add(TimeUnit.NANOSECONDS.toMillis(runs.get(i) - runs.get(i - 1)));
            }
        }
        // the next run starts once lockAtLeastFor is over in Redis, never sooner (ms rounding aside): once per period
        assertThat(gaps).hasSizeGreaterThanOrEqualTo(RUNS - 1)
                .allSatisfy(gap -> assertThat(gap).isGreaterThanOrEqualTo(AT_LEAST.toMillis() - 20));
    }

    private static ConfigurableApplicationContext start(long initialDelay) {
        return new SpringApplicationBuilder(Instance.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off",
                        "job.period=" + PERIOD.toMillis(), "job.initial-delay=" + initialDelay)
                .run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @EnableScheduling
    @EnableSchedulerLock(defaultLockAtMostFor = "10s")
    static class Instance {

        @Bean
        Job job() {
            return new Job();
        }

        @Bean
        ApplicationRunner warmUp(LockProvider locks) {
            return arguments -> locks.lock(new LockConfiguration(Instant.now(), "warm-up", Duration.ofSeconds(1),
                    Duration.ZERO)).ifPresent(SimpleLock::unlock);
        }
    }

    static class Job {

        @Scheduled(fixedRateString = "${job.period}", initialDelayString = "${job.initial-delay}")
        @SchedulerLock(name = "report", lockAtLeastFor = "800ms")
        public void run() {
            synchronized (runs) {
                runs.add(System.nanoTime());
            }
            enoughRuns.countDown();
        }
    }
}
