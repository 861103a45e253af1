package dev.distlock.benchmarks.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * What Redis has done so far, or between two readings: commands executed (top-level and inside scripts alike,
 * as {@code INFO commandstats} counts them) by name, CPU time of the server processes, and on a Redis Cluster the
 * {@code PUBLISH} messages the nodes sent each other over the cluster bus. Over several servers, each is the sum.
 *
 * @param calls command name to number of calls; the harness's own {@code INFO} and {@code CLUSTER} calls are left out
 * @param cpuSeconds {@code used_cpu_sys + used_cpu_user}
 * @param busPublishes {@code cluster_stats_messages_publish_sent}; 0 outside a cluster
 */
public record RedisCounters(Map<String, Long> calls, double cpuSeconds, long busPublishes) {

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
        return new RedisCounters(delta, cpuSeconds - earlier.cpuSeconds, busPublishes - earlier.busPublishes);
    }

    /** Both readings added up, e.g. over the rounds of one contender or over the servers of a topology. */
    public RedisCounters plus(RedisCounters other) {
        Map<String, Long> sum = new TreeMap<>(calls);
        other.calls.forEach((command, count) -> sum.merge(command, count, Long::sum));
        return new RedisCounters(sum, cpuSeconds + other.cpuSeconds, busPublishes + other.busPublishes);
    }

    /** Nothing yet. */
    public static RedisCounters none() {
        return new RedisCounters(Map.of(), 0, 0);
    }
}
