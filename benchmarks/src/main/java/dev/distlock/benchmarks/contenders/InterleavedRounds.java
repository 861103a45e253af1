package dev.distlock.benchmarks.contenders;

import dev.distlock.benchmarks.redis.RedisStats;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Contenders measured in rounds, each round in an order rotated by one so that none always runs first on a warming
 * machine, Redis flushed before each measurement and after the last.
 */
public final class InterleavedRounds {

    /** One measurement of a contender, named for its keys. */
    @FunctionalInterface
    public interface Measurement {
        void measure(String contender, String name) throws Exception;
    }

    private InterleavedRounds() {
    }

    /** Runs {@code measurement} for every contender in each of {@code rounds} rounds, named {@code round-<n>}. */
    public static void run(List<String> contenders, int rounds, RedisStats stats, Measurement measurement)
            throws Exception {
        for (int round = 0; round < rounds; round++) {
            List<String> order = new ArrayList<>(contenders);
            Collections.rotate(order, -round);
            for (String contender : order) {
                stats.flushAll();
                measurement.measure(contender, "round-" + round);
            }
        }
        stats.flushAll();
    }
}
