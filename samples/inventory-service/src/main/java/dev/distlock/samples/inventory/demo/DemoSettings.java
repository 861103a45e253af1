package dev.distlock.samples.inventory.demo;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * How the demo runs: how many instances, threads and reservations, on how many SKUs, against which Redis.
 *
 * @param instances separate JVMs running the service
 * @param threads threads per instance making reservations
 * @param operations reservations per instance and round
 * @param skus how many SKUs they share
 * @param redis the {@code spring.data.redis.*} system properties given to the demo, passed on to every
 *        instance (which also inherit the environment, {@code SPRING_DATA_REDIS_PORT} and the like)
 */
public record DemoSettings(int instances, int threads, int operations, int skus, Map<String, String> redis) {

    static final String REDIS_PREFIX = "spring.data.redis.";

    public DemoSettings {
        if (instances < 1 || threads < 1 || operations < 1 || skus < 1) {
            throw new IllegalArgumentException("instances, threads, operations and skus must be at least 1: "
                    + instances + ", " + threads + ", " + operations + ", " + skus);
        }
        redis = Map.copyOf(redis);
    }

    /** The settings from system properties: {@code -Ddemo.instances=4}, {@code -Dspring.data.redis.port=6380}. */
    public static DemoSettings fromSystemProperties() {
        Map<String, String> redis = new TreeMap<>();
        System.getProperties().stringPropertyNames().stream().filter(name -> name.startsWith(REDIS_PREFIX))
                .forEach(name -> redis.put(name, System.getProperty(name)));
        return new DemoSettings(Integer.getInteger("demo.instances", 3), Integer.getInteger("demo.threads", 4),
                Integer.getInteger("demo.operations", 1500), Integer.getInteger("demo.skus", 4), redis);
    }

    /**
     * A Redis setting such as {@code host}: the system property, else the environment variable Spring Boot
     * would read ({@code SPRING_DATA_REDIS_HOST}), else {@code fallback}.
     */
    String redis(String name, String fallback) {
        String value = redis.get(REDIS_PREFIX + name);
        if (value == null) {
            value = System.getenv("SPRING_DATA_REDIS_" + name.toUpperCase(Locale.ROOT).replace('-', '_'));
        }
        return value != null ? value : fallback;
    }

    /**
     * Whether the settings name a Redis ({@code url}, {@code host} or {@code port}, as a system property or
     * environment variable): then the demo uses that one or none, and starts no Redis of its own.
     */
    boolean namesRedis() {
        return redis("url", null) != null || redis("host", null) != null || redis("port", null) != null;
    }

    /** These settings on the Redis at {@code 127.0.0.1:port} instead. */
    DemoSettings onLocalRedis(int port) {
        Map<String, String> local = new TreeMap<>(redis);
        local.put(REDIS_PREFIX + "host", "127.0.0.1");
        local.put(REDIS_PREFIX + "port", Integer.toString(port));
        return new DemoSettings(instances, threads, operations, skus, local);
    }

    /** Reservations made by all instances in one round. */
    long operationsPerRound() {
        return (long) instances * operations;
    }
}
