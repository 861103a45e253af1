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
    void isUpWithTheServerVersionAndRoleWithoutWarningOnARedisThatNeverEvicts() {
        Health health = indicator(null, null).health();

        assertThat(health.getStatus()).isEqualTo(Status.UP);
        assertThat(health.getDetails()).containsEntry("maxmemoryPolicy", "noeviction")
                .containsEntry("role", "master").containsEntry("handOffChannelCheck", "ACL DRYRUN")
                .doesNotContainKeys("warning", "maxmemoryPolicyError", "error");
        assertThat((String) health.getDetails().get("version")).matches("\\d+\\.\\d+\\.\\d+");
    }

    @Test
    void isDownWhenTheServerIsOlderThanTheScriptsNeed() {
        DistlockHealthIndicator indicator = new DistlockHealthIndicator(
                new DistlockHealthCheck(factory(null, null), "distlock:granted:", "99.0.0"));

        Health health = indicator.health();

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("is older than 99.0.0",
                "the oldest version distlock's lock scripts run on");
        assertThat(health.getDetails()).containsKey("version");
    }

    @ParameterizedTest
    @ValueSource(strings = { "-evalsha", "-eval", "-@scripting" })
    void isDownSayingScriptingIsRefusedWhenTheUserMayNotRunScripts(String denied) {
        withUser(denied, () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat((String) health.getDetails().get("error"))
                    .contains("may not run Lua scripts", "EVALSHA and EVAL run every lock operation", "NOPERM");
        });
    }

    @Test
    void isDownWhenTheUserMayNotPublishOnTheHandOffChannelsAskingAclDryRun() {
        withUser("probe reset on >secret ~* resetchannels &other:* +@all", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("handOffChannelCheck", "ACL DRYRUN");
            assertThat((String) health.getDetails().get("error")).contains("may not publish on the hand-off "
                    + "channels distlock:granted:*", "releases that hand a lock to a waiting process would fail");
        });
    }

    @Test
    void isDownWhenTheUserMayNotPublishFoundByARealPublishWhenAclIsNotPermitted() {
        withUser("probe reset on >secret ~* resetchannels &other:* +@all -acl", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.DOWN);
            assertThat(health.getDetails()).containsEntry("handOffChannelCheck", "PUBLISH");
            assertThat((String) health.getDetails().get("error")).contains("distlock:granted:*", "NOPERM");
        });
    }

    @Test
    void isUpForAUserLimitedToTheHandOffChannels() {
        withUser("probe reset on >secret ~* resetchannels &distlock:granted:* +@all -acl", () -> {
            Health health = indicator("probe", "secret").health();

            assertThat(health.getStatus()).isEqualTo(Status.UP);
            assertThat(health.getDetails()).containsEntry("handOffChannelCheck", "PUBLISH");
        });
        withUser("probe reset on >secret ~* resetchannels &distlock:granted:* +@all", () -> assertThat(
                indicator("probe", "secret").health().getDetails()).containsEntry("handOffChannelCheck", "ACL DRYRUN")
                .doesNotContainKey("error"));
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
    void isDownWithTheErrorWhenRedisIsStopped() {
        DistlockHealthIndicator indicator = indicator(null, null);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP); // connected before the stop
        redis.server().stop();

        Health health = assertTimeoutPreemptively(PATIENCE, () -> indicator.health());

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("Redis could not be checked");
    }

    @Test
    void isDownWithinTheCommandTimeoutWhenRedisHangs() {
        DistlockHealthIndicator indicator = indicator(null, null);
        assertThat(indicator.health().getStatus()).isEqualTo(Status.UP);
        redis.server().suspend(); // the extension resumes it before the next test

        Health health = assertTimeoutPreemptively(PATIENCE, () -> indicator.health());

        assertThat(health.getStatus()).isEqualTo(Status.DOWN);
        assertThat((String) health.getDetails().get("error")).contains("Redis could not be checked");
    }

    private DistlockHealthIndicator indicator(String username, String password) {
        return new DistlockHealthIndicator(factory(username, password));
    }

    private LettuceConnectionFactory factory(String username, String password) {
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
        return factory;
    }

    /**
     * Runs {@code test} while user probe/secret may run every command but those {@code denied}, or has the
     * rules given whole (starting with its name).
     */
    private static void withUser(String denied, Runnable test) {
        String[] rules = (denied.startsWith("probe ") ? denied : "probe reset on >secret ~* &* +@all " + denied)
                .split(" ");
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
