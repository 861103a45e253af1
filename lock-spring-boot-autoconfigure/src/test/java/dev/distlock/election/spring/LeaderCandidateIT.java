package dev.distlock.election.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ApplicationListener;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Two instances of an application on one real Redis, each with a {@link LeaderCandidate} for one election: one
 * leads; when it shuts down gracefully it steps down (its revoked event first) and the other is granted at once, not
 * when the 30 s lease runs out, with a larger epoch.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class LeaderCandidateIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    /** What the instances heard, in order, with when: "first granted", "first revoked", "second granted". */
    private static final List<String> heard = new CopyOnWriteArrayList<>();
    private static final List<Long> epochs = new CopyOnWriteArrayList<>();

    @Test
    void theLeaderStepsDownWhenItsApplicationStopsAndTheOtherInstanceIsGrantedAtOnce() throws Exception {
        ConfigurableApplicationContext first = start("first");
        LeaderCandidate firstCandidate = first.getBean(LeaderCandidate.class);
        awaitHeard("first granted");
        ConfigurableApplicationContext second = start("second");
        try {
            LeaderCandidate secondCandidate = second.getBean(LeaderCandidate.class);
            assertThat(firstCandidate.isLeader()).isTrue();
            assertThat(secondCandidate.isLeader()).as("one leader at a time").isFalse();

            long closedAt = System.nanoTime();
            first.close();

            awaitHeard("second granted");
            long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - closedAt);
            assertThat(tookMillis).as("granted by the give-back, not by the 30 s lease running out")
                    .isLessThan(20_000);
            assertThat(heard).containsExactly("first granted", "first revoked stopped", "second granted");
            assertThat(secondCandidate.isLeader()).isTrue();
            assertThat(secondCandidate.term()).get().extracting(term -> term.epoch()).isEqualTo(epochs.get(1));
            assertThat(epochs.get(1)).isGreaterThan(epochs.get(0));
        } finally {
            second.close();
        }
        assertThat(heard).endsWith("second revoked stopped");
    }

    private static void awaitHeard(String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!heard.contains(what)) {
            assertThat(System.nanoTime() - deadline).as("'%s' heard; heard %s", what, heard).isNegative();
            new CountDownLatch(1).await(10, TimeUnit.MILLISECONDS);
        }
    }

    private static ConfigurableApplicationContext start(String instance) {
        return new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off",
                        "distlock.lease=30s", "instance=" + instance)
                .run();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        LeaderCandidate auditLeader(LockRegistry locks) {
            return new LeaderCandidate(locks, "nightly-audit");
        }

        @Bean
        ApplicationListener<LeaderGrantedEvent> granted(org.springframework.core.env.Environment environment) {
            return event -> {
                epochs.add(event.term().epoch());
                heard.add(environment.getProperty("instance") + " granted");
            };
        }

        @Bean
        ApplicationListener<LeaderRevokedEvent> revoked(org.springframework.core.env.Environment environment) {
            return event -> heard.add(environment.getProperty("instance") + " revoked "
                    + event.loss().map(loss -> "lost").orElse("stopped"));
        }
    }
}
