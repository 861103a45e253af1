package dev.distlock.actuate;

import dev.distlock.redis.RedisLockRegistry;
import java.util.Properties;
import org.springframework.data.redis.connection.RedisServerCommands;

/**
 * The Redis server's version and role, from {@code INFO server} and {@code INFO replication}, and whether the
 * version is one distlock's scripts run on ({@link RedisLockRegistry#MINIMUM_SERVER_VERSION} or later).
 */
record ServerInfo(String version, String role, String unreadableBecause) {

    static final String UNKNOWN = "unknown";

    /**
     * Reads the server's answers. A refused {@code INFO} makes the version unknown, said why; other failures
     * (Redis unreachable) are thrown.
     */
    static ServerInfo read(RedisServerCommands server) {
        try {
            String version = value(server.info("server"), "redis_version");
            String role = value(server.info("replication"), "role");
            return new ServerInfo(version, role, null);
        } catch (RuntimeException ex) {
            if (!HealthFailures.isNoPermission(ex)) {
                throw ex;
            }
            return new ServerInfo(UNKNOWN, UNKNOWN, "INFO failed: " + HealthFailures.rootCause(ex));
        }
    }

    /** Whether the version is known and older than {@code minimum}. */
    boolean isOlderThan(String minimum) {
        return !UNKNOWN.equals(version) && compare(version, minimum) < 0;
    }

    /** Compares dotted versions numerically, part by part; missing or non-numeric parts count as 0. */
    static int compare(String left, String right) {
        String[] a = left.split("\\.");
        String[] b = right.split("\\.");
        for (int i = 0; i < Math.max(a.length, b.length); i++) {
            int difference = Integer.compare(part(a, i), part(b, i));
            if (difference != 0) {
                return difference;
            }
        }
        return 0;
    }

    private static int part(String[] parts, int index) {
        if (index >= parts.length) {
            return 0;
        }
        String digits = parts[index].replaceAll("\\D.*$", "");
        return digits.isEmpty() ? 0 : Integer.parseInt(digits);
    }

    /** A value of {@code key}, also under the {@code host:port.} prefixes a cluster connection adds. */
    private static String value(Properties properties, String key) {
        if (properties != null) {
            for (String name : properties.stringPropertyNames()) {
                if (name.equals(key) || name.endsWith("." + key)) {
                    return properties.getProperty(name).trim();
                }
            }
        }
        return UNKNOWN;
    }
}
