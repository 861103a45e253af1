package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Five independent servers, as Redlock tests use them: crashes, immediate and delayed restarts. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IndependentServersIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(5);

    @Test
    @Order(1)
    void aServerCrashesAndComesBackAtOnceOrAfterADelay() throws Exception {
        List<RedisServer> servers = redis.servers();
        assertThat(servers).hasSize(5);
        servers.forEach(server -> server.command("SET", "lock", "token"));
        RedisServer immediate = servers.get(0);
        RedisServer delayed = servers.get(1);

        immediate.kill();
        delayed.kill();
        immediate.restart();
        long closedUntil = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(800);
        CompletableFuture<Void> later = CompletableFuture.runAsync(() -> delayed.restart(Duration.ofMillis(800)));

        assertThat(immediate.command("GET", "lock")).isNull(); // no persistence: the lock is forgotten
        boolean connected;
        try {
            delayed.client(Duration.ofMillis(200)).close();
            connected = true;
        } catch (UncheckedIOException refused) {
            connected = false;
        }
        if (System.nanoTime() - closedUntil < 0) { // the attempt ended within the downtime: it must have failed
            assertThat(connected).isFalse();
        }
        later.get(10, TimeUnit.SECONDS);
        assertThat(delayed.command("GET", "lock")).isNull();
        for (RedisServer survivor : servers.subList(2, 5)) {
            assertThat(survivor.command("GET", "lock")).isEqualTo("token");
        }
        servers.get(4).kill(); // left dead for the extension to restart
    }

    @Test
    @Order(2)
    void theNextTestGetsAllFiveRunningAndEmpty() {
        for (RedisServer server : redis.servers()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.command("DBSIZE")).isEqualTo(0L);
        }
    }
}
