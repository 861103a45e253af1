package dev.distlock.benchmarks.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Redis has done so far, or between two readings: commands executed (top-level and inside scripts alike,
 * as {@code INFO commandstats} counts them) by name, and CPU time of the server process.
 *
 * @param calls command name to number of calls; the harness's own {@code INFO} calls are left out
 * @param cpuSeconds {@code used_cpu_sys + used_cpu_user}
 */
public record RedisCounters(Map<String, Long> calls, double cpuSeconds) {

    public RedisCounters {
        calls = Map.copyOf(calls);
    }

    /** All commands. */
    public long commands() {
        return calls.values().stream().mapToLong(Long::longValue).sum();
    }

    /** What happened between {@code earlier} and this reading. */
    public RedisCounters minus(RedisCounters earlier) {
        Map<String, Long> delta = new HashMap<>();
        calls.forEach((command, count) -> {
            long diff = count - earlier.calls.getOrDefault(command, 0L);
            if (diff != 0) {
                delta.put(command, diff);
            }
        });
        return new RedisCounters(delta, cpuSeconds - earlier.cpuSeconds);
    }

    /** Both readings added up, e.g. over the rounds of one contender. */
    public RedisCounters plus(RedisCounters other) {
        Map<String, Long> sum = new TreeMap<>(calls);
        other.calls.forEach((command, count) -> sum.merge(command, count, Long::sum));
        return new RedisCounters(sum, cpuSeconds + other.cpuSeconds);
    }

    /** Nothing yet. */
    public static RedisCounters none() {
        return new RedisCounters(Map.of(), 0);
    }
}
