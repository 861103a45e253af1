package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The other server versions (Redis 6.0, Valkey 8.0) start from the binaries {@code .ci/fetch-redis-servers} unpacked, report their
 * version, run Lua with the libraries Redis scripts rely on, and go through the harness's fault helpers.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisServerVersionsIT {

    @RegisterExtension
    static final RedisServerExtension valkeys = RedisServerExtension.servers(2)
            .using(RedisBinary.named(RedisBinary.VALKEY_8_0));

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "redis-6.0,  Redis,  redis_version:6.0.16",
        "valkey-8.0, Valkey, valkey_version:8.0.1",
    })
    void aNamedBinaryStartsAndReportsItsVersion(String name, String product, String infoLine) {
        RedisBinary binary = RedisBinary.named(name);
        assertThat(binary.name()).isEqualTo(name);
        assertThat(binary.product()).isEqualTo(product);
        assertThat(infoLine).endsWith(binary.version());
        try (RedisServer server = RedisServer.start(binary)) {
            assertThat(server.binary()).isSameAs(binary);
            String info = (String) server.command("INFO", "server");
            assertThat(info.lines()).contains(infoLine);
            assertThat(RedisProcess.infoField(info, "process_id")).isEqualTo(Long.toString(server.pid()));
            assertThat(server.command("CONFIG", "GET", "save")).isEqualTo(List.of("save", ""));
            // Debian's Redis 6 loads cjson and bit from shared libraries the wrapper points Lua at
            assertThat(server.command("EVAL", "return cjson.encode({1, 2}) .. bit.band(7, 3)", "0"))
                    .isEqualTo("[1,2]3");
            assertThat(server.command("SET", "k", "v", "NX", "PX", "10000")).isEqualTo("OK");
        }
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"redis-6.0", "valkey-8.0"})
    void faultHelpersWorkOnANamedBinary(String name) {
        try (RedisServer server = RedisServer.start(RedisBinary.named(name))) {
            long pid = server.pid();
            server.command("SET", "k", "v");
            server.kill();
            assertThat(server.isRunning()).isFalse();
            server.restart();
            assertThat(server.pid()).isNotEqualTo(pid);
            assertThat(server.command("GET", "k")).isNull();

            try (RespClient client = server.client(Duration.ofSeconds(10))) {
                long start = System.nanoTime();
                server.pauseClients(Duration.ofMillis(500));
                assertThat(client.command("SET", "k", "v")).isEqualTo("OK");
                assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isGreaterThanOrEqualTo(400);
            }
            server.suspend();
            server.resume();
            assertThat(server.command("GET", "k")).isEqualTo("v");
        }
    }

    @Test
    @Order(1)
    void theExtensionRunsTheBinaryItWasGiven() {
        for (RedisServer server : valkeys.servers()) {
            assertThat(server.binary().name()).isEqualTo(RedisBinary.VALKEY_8_0);
            assertThat(RedisProcess.infoField(server.command("INFO", "server"), "valkey_version")).isEqualTo("8.0.1");
            assertThat(server.command("DBSIZE")).isEqualTo(0L);
            server.command("SET", "left", "over");
        }
        valkeys.servers().get(1).kill();
    }

    @Test
    @Order(2)
    void theExtensionResetsServersOfTheNamedBinaryToo() {
        for (RedisServer server : valkeys.servers()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.binary().name()).isEqualTo(RedisBinary.VALKEY_8_0);
            assertThat(server.command("DBSIZE")).isEqualTo(0L);
        }
    }
}
