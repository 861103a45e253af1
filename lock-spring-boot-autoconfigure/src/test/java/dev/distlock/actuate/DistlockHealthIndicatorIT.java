package dev.distlock.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The health indicator against a real redis-server: up, warned about eviction, restricted, down. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class DistlockHealthIndicatorIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private static final Duration COMMAND_TIMEOUT = Duration.ofSeconds(2);

    /** Far above one command timeout, so a loaded machine does not fail the test, yet bounded. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    private final Deque<LettuceConnectionFactory> factories = new ArrayDeque<>();

    @AfterEach
    void closeFactories() {
        factories.forEach(LettuceConnectionFactory::destroy);
    }

    @Test
    void isUpWithoutWarningOnARedisThatNeverEvicts() {
        Health health = indicator(null, null).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", "noeviction")
                .doesNotContainKeys("warning", "maxmemoryPolicyError");
    }

    @ParameterizedTest
    @ValueSource(strings = { "allkeys-lru", "allkeys-random", "volatile-lru", "volatile-ttl" })
    void warnsWhileStayingUpWhenThePolicyCanEvictLockKeys(String policy) {
        redis.server().command("CONFIG", "SET", "maxmemory-policy", policy);
        try {
            Health health = indicator(null, null).health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", policy);
            assertThat((String) health.getDetails().get("warning")).contains(policy, "evict", "noeviction");
        } finally {
            // the extension flushes data between tests, not configuration
            redis.server().command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }

    @Test
    void readsThePolicyFromInfoWhenConfigIsNotPermitted() {
        redis.server().command("CONFIG", "SET", "maxmemory-policy", "allkeys-lfu");
        withUser("-config", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", "allkeys-lfu").containsKey("warning");
        });
    }

    @Test
    void saysThePolicyIsUnknownWhenNeitherConfigNorInfoIsPermitted() {
        withUser("-config -info", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", "unknown").doesNotContainKey("warning");
            assertThat((String) health.getDetails().get("maxmemoryPolicyError"))
                    .contains("CONFIG GET maxmemory-policy failed", "INFO memory failed", "NOPERM");
        });
    }

    @Test
    void isDownWithTheErrorWhenLuaScriptsAreNotPermitted() {
        withUser("-eval", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) health.getDetails().get("error")).contains("NOPERM");
        });
    }

    @Test
    void isDownWithTheErrorWhenRedisIsStopped() {
        DistlockHealthIndicator indicator = indicator(null, null);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP); // connected before the stop
        redis.server().stop();

        Health health = assertTimeoutPreemptively(PATIENCE, () -> indicator.health());

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("Redis did not run the Lua probe");
    }

    @Test
    void isDownWithinTheCommandTimeoutWhenRedisHangs() {
        DistlockHealthIndicator indicator = indicator(null, null);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        redis.server().suspend(); // the extension resumes it before the next test

        Health health = assertTimeoutPreemptively(PATIENCE, () -> indicator.health());

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("Redis did not run the Lua probe");
    }

    private DistlockHealthIndicator indicator(String username, String password) {
        RedisServer server = redis.server();
        RedisStandaloneConfiguration configuration = new RedisStandaloneConfiguration(server.host(), server.port());
        configuration.setUsername(username);
        if (password != null) {
            configuration.setPassword(password);
        }
        LettuceConnectionFactory factory = new LettuceConnectionFactory(configuration,
                LettuceClientConfiguration.builder().commandTimeout(COMMAND_TIMEOUT).build());
        factory.afterPropertiesSet();
        factory.start();
        factories.push(factory);
        return new DistlockHealthIndicator(factory);
    }

    /** Runs {@code test} while user probe/secret may run every command but those {@code denied}. */
    private static void withUser(String denied, Runnable test) {
        String[] rules = ("probe reset on >secret ~* &* +@all " + denied).split(" ");
        String[] command = new String[rules.length + 2];
        command[0] = "ACL";
        command[1] = "SETUSER";
        System.arraycopy(rules, 0, command, 2, rules.length);
        redis.server().command(command);
        try {
            test.run();
        } finally {
            redis.server().command("ACL", "DELUSER", "probe");
        }
    }
}
