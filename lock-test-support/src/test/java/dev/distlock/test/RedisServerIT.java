package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Real redis-server processes: lifecycle, RESP client and fault helpers. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisServerIT {

    @Test
    void startsAndAnswersPing() {
        try (RedisServer server = RedisServer.start()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.host()).isEqualTo("127.0.0.1");
            assertThat(server.uri()).isEqualTo("redis://127.0.0.1:" + server.port());
            assertThat(server.command("PING")).isEqualTo("PONG");
            assertThat(info(server, "process_id")).isEqualTo(Long.toString(server.pid()));
            assertThat(server.command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
            assertThat(server.command("CONFIG", "GET", "appendonly")).isEqualTo(List.of("appendonly", "no"));
            assertThat(info(server, "redis_version")).startsWith("7.");
        }
    }

    @Test
    void twoServersAreIndependent() {
        try (RedisServer a = RedisServer.start(); RedisServer b = RedisServer.start()) {
            assertThat(a.port()).isNotEqualTo(b.port());
            assertThat(a.pid()).isNotEqualTo(b.pid());
            assertThat(a.command("SET", "k", "a")).isEqualTo("OK");
            assertThat(b.command("GET", "k")).isNull();
            assertThat(b.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void respClientMapsReplies() {
        try (RedisServer server = RedisServer.start(); RespClient client = server.client()) {
            String text = "grüße ✓ 锁";
            assertThat(client.command("SET", "key ü", text)).isEqualTo("OK");
            assertThat(client.command("GET", "key ü")).isEqualTo(text);
            assertThat(client.command("GET", "missing")).isNull();
            assertThat(client.command("SET", "empty", "")).isEqualTo("OK");
            assertThat(client.command("GET", "empty")).isEqualTo("");
            assertThat(client.command("INCR", "n")).isEqualTo(1L);
            assertThat(client.command("RPUSH", "list", "a", "b")).isEqualTo(2L);
            assertThat(client.command("LRANGE", "list", "0", "-1")).isEqualTo(List.of("a", "b"));
            assertThat(client.command("EVAL", "return {1, 'x', {2}, false}", "0"))
                    .isEqualTo(Arrays.asList(1L, "x", List.of(2L), null));
            assertThat(client.command("DBSIZE")).isEqualTo(4L);
        }
    }

    @Test
    void errorRepliesThrowWithTheServerText() {
        try (RedisServer server = RedisServer.start(); RespClient client = server.client()) {
            assertThatThrownBy(() -> client.command("NOSUCHCOMMAND", "x"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ERR unknown command");
            client.command("SET", "s", "v");
            assertThatThrownBy(() -> client.command("LPUSH", "s", "x"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageStartingWith("WRONGTYPE");
            // the connection is still usable after an error reply
            assertThat(client.command("PING")).isEqualTo("PONG");
            // errors nested in arrays do not desynchronise the stream
            client.command("MULTI");
            client.command("LPUSH", "s", "x");
            client.command("GET", "s");
            List<?> results = (List<?>) client.command("EXEC");
            assertThat(results).hasSize(2);
            assertThat(results.get(0)).isInstanceOf(IllegalStateException.class);
            assertThat(results.get(1)).isEqualTo("v");
        }
    }

    @Test
    void restartKeepsThePortAndLosesTheData() {
        try (RedisServer server = RedisServer.start()) {
            int port = server.port();
            long pid = server.pid();
            server.command("SET", "k", "v");

            server.restart();

            assertThat(server.isRunning()).isTrue();
            assertThat(server.port()).isEqualTo(port);
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(info(server, "process_id")).isEqualTo(Long.toString(server.pid()));
            assertThat(server.command("GET", "k")).isNull();
            assertThat(server.command("DBSIZE")).isEqualTo(0L);
        }
    }

    @Test
    void stopFreesThePortAndIsIdempotent() throws IOException {
        RedisServer server = RedisServer.start();
        Path dir = server.dir();
        try {
            server.stop();
            assertThat(server.isRunning()).isFalse();
            try (ServerSocket socket = bind(server.port())) {
                assertThat(socket.getLocalPort()).isEqualTo(server.port());
            }
            server.stop();
            assertThat(server.isRunning()).isFalse();
            assertThatThrownBy(() -> server.command("PING")).isInstanceOf(UncheckedIOException.class);
        } finally {
            server.close();
        }
        assertThat(dir).doesNotExist();
        server.close();
    }

    @Test
    void restartFailsWithTheLogTailWhenThePortIsTaken() throws IOException {
        try (RedisServer server = RedisServer.start()) {
            server.stop();
            try (ServerSocket squatter = bind(server.port())) {
                assertThatThrownBy(server::restart)
                        .isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("redis.log")
                        .hasMessageContaining("Address already in use");
                assertThat(server.isRunning()).isFalse();
            }
            server.restart();
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void suspendFreezesTheServerAndResumeThawsIt() {
        try (RedisServer server = RedisServer.start()) {
            server.command("SET", "k", "v");

            server.suspend();

            assertThat(server.isSuspended()).isTrue();
            assertThat(server.isRunning()).isTrue();
            try (RespClient client = server.client(Duration.ofMillis(300))) {
                assertThatThrownBy(() -> client.command("PING"))
                        .isInstanceOf(UncheckedIOException.class)
                        .hasCauseInstanceOf(SocketTimeoutException.class);
            }

            server.resume();

            assertThat(server.isSuspended()).isFalse();
            try (RespClient client = server.client(Duration.ofSeconds(5))) {
                assertThat(client.command("PING")).isEqualTo("PONG");
                assertThat(client.command("GET", "k")).isEqualTo("v");
            }
        }
    }

    @ParameterizedTest(name = "kill: {0}")
    @ValueSource(booleans = {false, true})
    void aSuspendedServerCanBeStoppedOrKilled(boolean kill) {
        try (RedisServer server = RedisServer.start()) {
            server.suspend();
            if (kill) {
                server.kill();
            } else {
                server.stop();
            }
            assertThat(server.isRunning()).isFalse();
            assertThat(server.isSuspended()).isFalse();
        }
    }

    @Test
    void clientPauseDelaysWrites() {
        try (RedisServer server = RedisServer.start(); RespClient client = server.client(Duration.ofSeconds(10))) {
            long start = System.nanoTime();
            server.pauseClients(Duration.ofMillis(1000));
            assertThat(client.command("SET", "k", "v")).isEqualTo("OK");
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // the pause began after 'start', so the write cannot have completed less than ~1 s later
            assertThat(elapsedMillis).isGreaterThanOrEqualTo(900);
            assertThat(client.command("GET", "k")).isEqualTo("v");
        }
    }

    @Test
    void aPausedServerCanBeStoppedQuickly() {
        try (RedisServer server = RedisServer.start()) {
            server.pauseClients(Duration.ofSeconds(30));
            long start = System.nanoTime();
            server.stop();
            assertThat(server.isRunning()).isFalse();
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
        }
    }

    @Test
    void flushAllEmptiesTheServer() {
        try (RedisServer server = RedisServer.start(); RespClient client = server.client()) {
            client.command("SET", "a", "1");
            client.command("SELECT", "1");
            client.command("SET", "b", "2");
            server.flushAll();
            assertThat(client.command("DBSIZE")).isEqualTo(0L);
            client.command("SELECT", "0");
            assertThat(client.command("DBSIZE")).isEqualTo(0L);
        }
    }

    @Test
    void readTimeoutClosesTheConnection() {
        try (RedisServer server = RedisServer.start(); RespClient client = server.client(Duration.ofMillis(200))) {
            assertThatThrownBy(() -> client.command("DEBUG", "SLEEP", "1"))
                    .isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(SocketTimeoutException.class);
            // the late reply must not be read as the answer to a later command
            assertThatThrownBy(() -> client.command("PING")).isInstanceOf(UncheckedIOException.class);
        }
    }

    @Test
    void killEndsTheProcessAtOnceAndRestartBringsItBack() throws IOException {
        try (RedisServer server = RedisServer.start()) {
            long pid = server.pid();
            server.command("SET", "k", "v");

            server.kill();

            assertThat(server.isRunning()).isFalse();
            assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)).isFalse();
            try (ServerSocket socket = bind(server.port())) {
                assertThat(socket.getLocalPort()).isEqualTo(server.port());
            }
            server.kill(); // idempotent
            server.restart();
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(server.command("GET", "k")).isNull();
        }
    }

    @Test
    void restartWithDowntimeKeepsThePortClosedMeanwhile() {
        try (RedisServer server = RedisServer.start()) {
            server.kill();
            long start = System.nanoTime();
            server.restart(Duration.ofMillis(700));
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(700);
            assertThat(server.command("PING")).isEqualTo("PONG");
        }
    }

    @Test
    void theBuilderPassesAConfigFileAndExtraOptions() throws IOException {
        try (RedisServer server = RedisServer.builder()
                .config("maxmemory 3mb", "maxmemory-policy allkeys-lru", "hz 11")
                .args("--hz", "12")
                .start()) {
            assertThat(server.configFile()).contains(server.dir().resolve("redis.conf"));
            assertThat(server.command("CONFIG", "GET", "maxmemory")).isEqualTo(List.of("maxmemory", "3145728"));
            assertThat(server.command("CONFIG", "GET", "hz")).isEqualTo(List.of("hz", "12")); // options win
            assertThat(server.command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));

            Files.writeString(server.configFile().orElseThrow(), "maxmemory 5mb\n", StandardOpenOption.APPEND);
            server.restart();
            assertThat(server.command("CONFIG", "GET", "maxmemory")).isEqualTo(List.of("maxmemory", "5242880"));
        }
        try (RedisServer plain = RedisServer.start()) {
            assertThat(plain.configFile()).isEmpty();
        }
    }

    @Test
    void theBuilderStartsSeveralServersInParallel() {
        long start = System.nanoTime();
        List<RedisServer> servers = RedisServer.builder().start(5);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        try {
            assertThat(servers).hasSize(5);
            assertThat(servers.stream().map(RedisServer::port).distinct()).hasSize(5);
            for (RedisServer server : servers) {
                assertThat(server.command("PING")).isEqualTo("PONG");
            }
            System.out.println("5 servers started in " + millis + " ms");
        } finally {
            servers.forEach(RedisServer::close);
        }
    }

    @Test
    void aClusterNodeGetsAFreeBusPortAndItsOwnNodesFile() throws IOException {
        try (RedisServer node = RedisServer.builder().clusterNode().start()) {
            assertThat(node.port()).isLessThanOrEqualTo(65_535 - 10_000);
            assertThat(node.command("CLUSTER", "INFO").toString()).contains("cluster_state:fail");
            assertThat(node.dir().resolve("nodes.conf")).exists();
            String id = (String) node.command("CLUSTER", "MYID");
            node.kill();
            node.restart();
            assertThat(node.command("CLUSTER", "MYID")).isEqualTo(id);
        }
    }

    private static String info(RedisServer server, String field) {
        return RedisProcess.infoField(server.command("INFO", "server"), field);
    }

    private static ServerSocket bind(int port) throws IOException {
        return new ServerSocket(port, 1, InetAddress.getByName("127.0.0.1"));
    }
}
