package dev.distlock.samples.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.samples.inventory.demo.DemoRedis.RedisUnavailableException;
import dev.distlock.test.RedisServerExtension;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The README's demo, with small numbers, on the test's own redis-server: real child JVMs and all. */
@Timeout(value = 240, unit = TimeUnit.SECONDS)
class InventoryDemoIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    @Test
    void twoInstancesRunBothRoundsAndTheRoundWithTheLockIsExact() throws Exception {
        redis.server().command("SET", InventoryDemo.KEY_PREFIX + ":{sku:sku-1}", "left by a crashed run");
        redis.server().command("SET", "someone-else:key", "kept");
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        DemoSettings settings = new DemoSettings(2, 3, 200, 2, Map.of(
                "spring.data.redis.host", redis.server().host(),
                "spring.data.redis.port", Integer.toString(redis.server().port())));

        DemoReport report = new InventoryDemo(settings, new PrintStream(output, true, StandardCharsets.UTF_8)).run();

        RoundOutcome locked = report.locked();
        assertThat(locked.attempted()).isEqualTo(400);
        assertThat(locked.failed()).isZero();
        assertThat(locked.reserved()).isEqualTo(400);
        assertThat(locked.taken()).isEqualTo(400);
        assertThat(locked.acquisitions()).isEqualTo(400);
        assertThat(locked.instances().timeouts()).isZero();
        assertThat(locked.instances().lost()).isZero();
        assertThat(locked.instances().held()).isEqualTo(400);
        assertThat(locked.instances().waitP99()).isGreaterThanOrEqualTo(locked.instances().waitP50());
        assertThat(locked.highestFence()).isPositive();
        assertThat(report.lockedRoundExact()).isTrue();
        assertThat(report.exitStatus()).isZero();

        RoundOutcome unlocked = report.unlocked();
        assertThat(unlocked.attempted()).isEqualTo(400);
        assertThat(unlocked.reserved()).isEqualTo(400 - unlocked.failed());
        assertThat(unlocked.taken()).isBetween(1L, unlocked.reserved());
        assertThat(unlocked.acquisitions()).isZero();
        assertThat(unlocked.highestFence()).isZero();

        String printed = output.toString(StandardCharsets.UTF_8);
        assertThat(printed).contains("2 instances ready", "with the lock", "without the lock",
                "reservations attempted", "With the lock the stock is exact: 400 reservations, 400 units taken.");
        // the demo tidies its own keys, and only those
        assertThat(redis.server().command("KEYS", InventoryDemo.KEY_PREFIX + ":*")).isEqualTo(List.of());
        assertThat(redis.server().command("GET", "someone-else:key")).isEqualTo("kept");
        assertThat(ProcessHandle.current().children()
                .filter(child -> child.info().commandLine().orElse("").contains(DemoInstance.class.getName())))
                .as("instances left running").isEmpty();
    }

    @Test
    void withNoRedisNamedAndNoneOnTheDefaultPortItStartsItsOwnForTheRunAndStopsIt() throws Exception {
        int closedPort = closedPort();
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        DemoSettings settings = new DemoSettings(1, 2, 50, 1, Map.of());

        DemoReport report = new InventoryDemo(settings, new PrintStream(output, true, StandardCharsets.UTF_8),
                closedPort).run();

        assertThat(report.lockedRoundExact()).isTrue();
        assertThat(report.locked().acquisitions()).isEqualTo(50);
        String printed = output.toString(StandardCharsets.UTF_8);
        Matcher started = Pattern.compile("no Redis answers at localhost:" + closedPort + ".*: starting "
                + "\\S*redis-server on 127\\.0\\.0\\.1:(\\d+) for this run", Pattern.DOTALL).matcher(printed);
        assertThat(started.find()).as("the demo says it starts its own Redis: %s", printed).isTrue();
        int ownPort = Integer.parseInt(started.group(1));
        assertThat(printed).contains("Locks in Redis at 127.0.0.1:" + ownPort);
        assertThatThrownBy(() -> new Socket(InetAddress.getLoopbackAddress(), ownPort).close())
                .as("the demo's own Redis is stopped at the end").isInstanceOf(IOException.class);
    }

    @Test
    void aNamedRedisThatDoesNotAnswerIsNotReplacedByOneOfItsOwn() throws Exception {
        int closedPort = closedPort();
        DemoSettings settings = new DemoSettings(1, 1, 1, 1, Map.of("spring.data.redis.port",
                Integer.toString(closedPort)));

        assertThatThrownBy(() -> new InventoryDemo(settings, System.out, closedPort).run())
                .isInstanceOf(RedisUnavailableException.class)
                .hasMessageContaining("localhost:" + closedPort);
    }

    private static int closedPort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    @Test
    void withoutRedisItStopsAtOnceAndSaysHowToStartOne() throws Exception {
        int closedPort = closedPort();
        DemoSettings settings = new DemoSettings(1, 1, 1, 1, Map.of("spring.data.redis.host", "127.0.0.1",
                "spring.data.redis.port", Integer.toString(closedPort)));
        long start = System.nanoTime();

        assertThatThrownBy(() -> new InventoryDemo(settings, System.out).run())
                .isInstanceOf(RedisUnavailableException.class)
                .hasMessageContaining("127.0.0.1:" + closedPort);
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
        assertThat(InventoryDemo.howToStartRedis(new RedisUnavailableException("127.0.0.1:" + closedPort,
                new IllegalStateException("Connection refused"))))
                .contains("redis-server", "docker compose -f samples/inventory-service/compose.yaml up -d",
                        "-Dspring.data.redis.port=");
    }
}
