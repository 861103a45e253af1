package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The extension starts servers once and hands every test clean, running servers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerExtensionIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(3);

    private static final Set<Integer> portsSeen = new HashSet<>();
    private static List<RedisServer> started;
    private static String scriptSha;

    @Test
    @Order(1)
    void startsSeveralServers() {
        List<RedisServer> servers = redis.servers();
        started = servers;
        assertThat(servers).hasSize(3);
        assertThat(redis.server()).isSameAs(servers.get(0));
        for (RedisServer server : servers) {
            assertThat(server.command("PING")).isEqualTo("PONG");
            portsSeen.add(server.port());
        }
        assertThat(portsSeen).hasSize(3);
    }

    @Test
    @Order(2)
    void damageEverything() {
        List<RedisServer> servers = redis.servers();
        servers.get(0).command("SET", "left", "over");
        scriptSha = (String) servers.get(0).command("SCRIPT", "LOAD", "return 1");
        servers.get(1).stop();
        servers.get(2).suspend();
    }

    @Test
    @Order(3)
    void nextTestGetsCleanRunningServers() {
        List<RedisServer> servers = redis.servers();
        assertThat(servers).isEqualTo(started);
        for (RedisServer server : servers) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.isSuspended()).isFalse();
            assertThat(portsSeen).contains(server.port());
            try (RespClient client = server.client(Duration.ofSeconds(5))) {
                assertThat(client.command("DBSIZE")).isEqualTo(0L);
            }
        }
        assertThat(servers.get(0).command("SCRIPT", "EXISTS", scriptSha)).isEqualTo(List.of(0L));
    }

    @Test
    @Order(4)
    void pauseClientsForLong() {
        redis.server().pauseClients(Duration.ofSeconds(60));
        redis.servers().get(1).command("CLIENT", "PAUSE", "60000", "WRITE");
    }

    @Test
    @Order(5)
    void nextTestIsNotPaused() {
        for (RedisServer server : redis.servers()) {
            try (RespClient client = server.client(Duration.ofSeconds(5))) {
                assertThat(client.command("SET", "k", "v")).isEqualTo("OK");
            }
        }
    }

    @Nested
    class InANestedClass {
        @Test
        void nestedClassesShareTheServersOfTheEnclosingClass() {
            assertThat(redis.servers()).isEqualTo(started);
            assertThat(redis.server().command("DBSIZE")).isEqualTo(0L);
        }
    }

    @AfterAll
    static void serversStillRunUntilAfterAllOfTheExtension() {
        // @AfterAll methods run before the extension's afterAll callback
        assertThat(redis.server().isRunning()).isTrue();
    }
}
