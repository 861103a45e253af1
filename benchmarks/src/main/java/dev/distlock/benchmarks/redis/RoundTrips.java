package dev.distlock.benchmarks.redis;

import java.util.Map;
import java.util.stream.Collectors;

/**
 * What one uncontended lock and unlock sends to Redis, counted with MONITOR.
 *
 * @param contender the contender's name
 * @param operations how many lock+unlock pairs were watched
 * @param topLevel commands the client sent, by name
 * @param inScripts commands its scripts ran, by name
 */
public record RoundTrips(String contender, int operations, Map<String, Long> topLevel, Map<String, Long> inScripts) {

    /** Commands sent by the client per lock+unlock: its round trips, as every contender waits for each reply. */
    public double roundTripsPerOp() {
        return sum(topLevel) / (double) operations;
    }

    /** Every command Redis ran per lock+unlock, script internals included. */
    public double commandsPerOp() {
        return (sum(topLevel) + sum(inScripts)) / (double) operations;
    }

    /** E.g. {@code evalsha 2} and {@code get 1, set 2, time 1}: commands per lock+unlock by name. */
    public static String perOp(Map<String, Long> counts, int operations) {
        if (counts.isEmpty()) {
            return "none";
        }
        return counts.entrySet().stream()
                .map(entry -> entry.getKey() + " " + format(entry.getValue() / (double) operations))
                .collect(Collectors.joining(", "));
    }

    private static String format(double perOp) {
        return perOp == Math.rint(perOp) ? Long.toString((long) perOp) : String.format("%.2f", perOp);
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }
}
