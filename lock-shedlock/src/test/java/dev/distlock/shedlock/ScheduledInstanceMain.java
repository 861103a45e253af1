package dev.distlock.shedlock;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.spring.annotation.EnableSchedulerLock;
import net.javacrumbs.shedlock.spring.annotation.SchedulerLock;
import org.springframework.boot.ApplicationRunner;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

/**
 * One instance of an application scheduling a ShedLock job, as its users write it, in a process of its own: it
 * prints {@code @ run <epoch ms>} at each run of the job.
 *
 * <p>Arguments: the Redis port, the job's period and initial delay in ms, its {@code lockAtLeastFor} in ms.
 */
public final class ScheduledInstanceMain {

    static final PrintStream OUT = new PrintStream(System.out, true, StandardCharsets.UTF_8);

    private ScheduledInstanceMain() {
    }

    public static void main(String[] args) {
        new SpringApplicationBuilder(Instance.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + args[0], "spring.main.banner-mode=off",
                        "job.period=" + args[1], "job.initial-delay=" + args[2], "job.at-least=" + args[3] + "ms")
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

        /**
         * Locks once before the first run (the first Redis connection): ShedLock counts lockAtLeastFor from the lock's
         * creation, so a cold first acquisition would start that run late and shorten the gap after it.
         */
        @Bean
        ApplicationRunner warmUp(LockProvider locks) {
            return arguments -> locks.lock(new LockConfiguration(Instant.now(), "warm-up", Duration.ofSeconds(1),
                    Duration.ZERO)).ifPresent(SimpleLock::unlock);
        }
    }

    static class Job {

        @Scheduled(fixedRateString = "${job.period}", initialDelayString = "${job.initial-delay}")
        @SchedulerLock(name = "report", lockAtLeastFor = "${job.at-least}")
        public void run() {
            OUT.println("@ run " + System.currentTimeMillis());
        }
    }
}
