package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/** What the Redis tests read off a server, and how they wait for it. */
final class RedisProbes {

    static final Duration PATIENCE = Duration.ofSeconds(10);

    private RedisProbes() {
    }

    /** Calls of {@code command} since the last {@code CONFIG RESETSTAT}. */
    static long commandCalls(RedisServer server, String command) {
        return commandStats(server).filter(line -> line.startsWith("cmdstat_" + command + ":"))
                .mapToLong(RedisProbes::calls).sum();
    }

    /** Calls of every command since the last RESETSTAT, but for the tests' own INFO, CONFIG and PUBSUB. */
    static long allCommandCalls(RedisServer server) {
        return commandStats(server).filter(line -> !line.matches("cmdstat_(info|config|pubsub)(\\|.*)?:.*"))
                .mapToLong(RedisProbes::calls).sum();
    }

    /** Polls external state (Redis) until it holds, for at most {@link #PATIENCE}. */
    static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition not met within " + PATIENCE).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    private static java.util.stream.Stream<String> commandStats(RedisServer server) {
        String stats = (String) server.command("INFO", "commandstats");
        return Arrays.stream(stats.split("\r\n")).filter(line -> line.startsWith("cmdstat_"));
    }

    private static long calls(String line) {
        return Long.parseLong(line.substring(line.indexOf("calls=") + 6, line.indexOf(',')));
    }
}
