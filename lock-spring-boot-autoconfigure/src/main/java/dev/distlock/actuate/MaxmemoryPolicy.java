package dev.distlock.actuate;

import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import org.springframework.data.redis.connection.RedisServerCommands;

/**
 * Redis's {@code maxmemory-policy}, and whether it lets Redis evict lock keys. Only {@code noeviction} is
 * safe: {@code allkeys-*} policies evict any key, {@code volatile-*} ones evict keys with a TTL, which every
 * lock key has. An evicted lock key is a lock that another process can take while its holder still works.
 */
final class MaxmemoryPolicy {

    static final String SAFE = "noeviction";

    /** The policies found (one per node on a cluster), or empty if they could not be read. */
    private final Set<String> policies;
    private final String unreadableBecause;

    private MaxmemoryPolicy(Set<String> policies, String unreadableBecause) {
        this.policies = policies;
        this.unreadableBecause = unreadableBecause;
    }

    /**
     * Asks {@code CONFIG GET maxmemory-policy}, then {@code INFO memory}: managed Redis services often
     * refuse {@code CONFIG} but answer {@code INFO}. Never throws for a refused command.
     */
    static MaxmemoryPolicy read(RedisServerCommands server) {
        String configFailure;
        try {
            Set<String> policies = valuesOf(server.getConfig("maxmemory-policy"), "maxmemory-policy");
            if (!policies.isEmpty()) {
                return new MaxmemoryPolicy(policies, null);
            }
            configFailure = "CONFIG GET maxmemory-policy answered nothing";
        } catch (RuntimeException ex) {
            configFailure = "CONFIG GET maxmemory-policy failed: " + HealthFailures.rootCause(ex);
        }
        try {
            Set<String> policies = valuesOf(server.info("memory"), "maxmemory_policy");
            if (!policies.isEmpty()) {
                return new MaxmemoryPolicy(policies, null);
            }
            return new MaxmemoryPolicy(Set.of(), configFailure + "; INFO memory has no maxmemory_policy");
        } catch (RuntimeException ex) {
            return new MaxmemoryPolicy(Set.of(), configFailure + "; INFO memory failed: " + HealthFailures.rootCause(ex));
        }
    }

    /** Values of {@code key}, also under the {@code host:port.} prefixes a cluster connection adds. */
    private static Set<String> valuesOf(Properties properties, String key) {
        Set<String> values = new TreeSet<>();
        if (properties != null) {
            for (String name : properties.stringPropertyNames()) {
                if (name.equals(key) || name.endsWith("." + key)) {
                    values.add(properties.getProperty(name).trim());
                }
            }
        }
        return values;
    }

    /** Whether some node may evict lock keys. */
    boolean canEvictLockKeys() {
        return policies.stream().anyMatch(policy -> !SAFE.equals(policy));
    }

    /** Adds {@code maxmemoryPolicy}, plus {@code warning} or {@code maxmemoryPolicyError} when due. */
    void describe(Map<String, Object> details) {
        if (policies.isEmpty()) {
            details.put("maxmemoryPolicy", "unknown");
            details.put("maxmemoryPolicyError", unreadableBecause);
            return;
        }
        String policy = String.join(",", policies);
        details.put("maxmemoryPolicy", policy);
        if (canEvictLockKeys()) {
            details.put("warning", "maxmemory-policy " + policy + " lets Redis evict lock keys when memory "
                    + "runs short: a held lock would vanish and another process could take it. Use noeviction.");
        }
    }
}
