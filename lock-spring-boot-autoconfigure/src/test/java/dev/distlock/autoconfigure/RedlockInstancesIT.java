package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.redlock.RedlockLockRegistry;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;

/**
 * Two application contexts with {@code distlock.redlock.nodes} on three real redis-servers stand for two
 * instances of a service; they run a non-atomic read-modify-write on the first server under
 * {@code @DistributedLock}. Nothing else is configured: no {@code spring.data.redis.*}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedlockInstancesIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(3);

    private final List<ConfigurableApplicationContext> instances = new ArrayList<>();

    @BeforeEach
    void startTwoInstances() {
        String nodes = redis.servers().stream().map(RedisServer::uri).collect(Collectors.joining(","));
        for (int i = 0; i < 2; i++) {
            instances.add(new SpringApplicationBuilder(Instance.class)
                    .web(WebApplicationType.NONE)
                    .properties("distlock.redlock.nodes=" + nodes, "spring.main.banner-mode=off")
                    .run());
        }
    }

    @AfterEach
    void stopInstances() {
        instances.forEach(ConfigurableApplicationContext::close);
    }

    @Test
    void annotatedCallsOfTwoInstancesNeverOverlapAndLeaveNoKeys() throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> calls = new ArrayList<>();
            for (int thread = 0; thread < 4; thread++) {
                Counter counter = instances.get(thread % 2).getBean(Counter.class);
                calls.add(threads.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        counter.increment();
                    }
                    return null;
                }));
            }
            for (Future<?> call : calls) {
                call.get(90, TimeUnit.SECONDS);
            }
        } finally {
            threads.shutdownNow();
        }

        assertThat(redis.server().command("GET", "counter")).isEqualTo("200");
        assertThat(instances.get(0).getBean(RedlockLockRegistry.class)).isNotNull();
        String key = instances.get(0).getBean(RedlockLockRegistry.class).keyOf("counter");
        for (RedisServer server : redis.servers()) {
            Object value = server.command("GET", key);
            assertThat(value == null || ((String) value).startsWith("~ ")).as(server + ": freed").isTrue();
        }
    }

    /**
     * The {@code distlock} health indicator checks each server: UP with all three, UP with a warning while one
     * is down (killed) and a majority can take locks, DOWN when a second one stops answering (frozen).
     */
    @Test
    void theHealthIndicatorIsUpWhileAMajorityOfTheServersCanTakeLocks() {
        HealthIndicator health = instances.get(0).getBean("distlockHealthIndicator", HealthIndicator.class);
        RedisServer killed = redis.servers().get(1);
        RedisServer frozen = redis.servers().get(2);

        Health all = health.health();
        assertThat(all.getStatus()).isEqualTo(Status.UP);
        assertThat(all.getDetails()).containsEntry("quorum", 2).containsEntry("serversUp", 3)
                .doesNotContainKeys("warning", "error");
        try {
            killed.kill();
            Health one = health.health();
            assertThat(one.getStatus()).isEqualTo(Status.UP);
            assertThat(one.getDetails()).containsEntry("serversUp", 2);
            assertThat((String) one.getDetails().get("warning")).contains("1 of 3 Redlock servers cannot take locks",
                    address(killed));
            assertThat(serverDetails(one, killed)).containsEntry("status", "DOWN").containsKey("error");

            frozen.suspend();
            Health two = health.health();
            assertThat(two.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) two.getDetails().get("error")).contains("1 of 3 Redlock servers can take locks, 2 "
                    + "needed", address(killed), address(frozen));
            assertThat(serverDetails(two, redis.servers().get(0))).containsEntry("status", "UP").containsKey("version");
        } finally {
            frozen.resume();
            killed.restart();
        }
    }

    private static String address(RedisServer server) {
        return server.host() + ":" + server.port();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> serverDetails(Health health, RedisServer server) {
        return ((Map<String, Map<String, Object>>) health.getDetails().get("servers")).get(address(server));
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Instance {

        @Bean
        Counter counter() {
            return new Counter();
        }
    }

    /** A read-modify-write on the first server: only exact under the lock. */
    static class Counter {

        @DistributedLock(name = "counter")
        public void increment() {
            RedisServer server = redis.server();
            Object value = server.command("GET", "counter");
            long next = value == null ? 1 : Long.parseLong(value.toString()) + 1;
            Thread.yield(); // widen the window between read and write
            server.command("SET", "counter", Long.toString(next));
        }
    }
}
