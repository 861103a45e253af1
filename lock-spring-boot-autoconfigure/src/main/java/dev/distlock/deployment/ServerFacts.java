package dev.distlock.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.function.Supplier;
import org.springframework.data.redis.connection.RedisServerCommands;

/**
 * What one Redis server says of itself ({@code INFO server, replication, persistence, memory} and
 * {@code CONFIG GET save}), each read on its own so that a command an ACL refuses leaves only its own facts
 * {@value DeploymentReport#UNKNOWN}, said why.
 */
record ServerFacts(String version, String mode, int replicas, String persistence, String evictionPolicy,
        List<String> unreadable) {

    static ServerFacts read(RedisServerCommands server) {
        List<String> unreadable = new ArrayList<>();
        Properties info = new Properties();
        for (String section : List.of("server", "replication", "persistence", "memory")) {
            Properties read = readOr(() -> server.info(section), "INFO " + section, unreadable);
            if (read != null) {
                info.putAll(read);
            }
        }
        String version = value(info, "redis_version");
        String replicas = value(info, "connected_slaves");
        return new ServerFacts(version, value(info, "redis_mode"),
                replicas.equals(DeploymentReport.UNKNOWN) ? 0 : Integer.parseInt(replicas),
                persistence(value(info, "aof_enabled"), readOr(() -> server.getConfig("save"), "CONFIG GET save",
                        unreadable)), value(info, "maxmemory_policy"), List.copyOf(unreadable));
    }

    private static String persistence(String aofEnabled, Properties save) {
        if (aofEnabled.equals(DeploymentReport.UNKNOWN)) {
            return DeploymentReport.UNKNOWN;
        }
        boolean aof = "1".equals(aofEnabled);
        String snapshots = save == null ? null : value(save, "save");
        if (snapshots == null || snapshots.equals(DeploymentReport.UNKNOWN)) {
            return aof ? "AOF" : DeploymentReport.UNKNOWN;
        }
        boolean rdb = !snapshots.isBlank();
        return aof && rdb ? "AOF and RDB snapshots" : aof ? "AOF" : rdb ? "RDB snapshots" : "none";
    }

    private static Properties readOr(Supplier<Properties> read, String command, List<String> unreadable) {
        try {
            return read.get();
        } catch (RuntimeException refused) {
            Throwable cause = refused;
            while (cause.getCause() != null && cause.getCause() != cause) {
                cause = cause.getCause();
            }
            unreadable.add(command + ": " + cause.getMessage());
            return null;
        }
    }

    /** A value of {@code key}, also under the {@code host:port.} prefixes a cluster connection adds. */
    private static String value(Properties properties, String key) {
        for (String name : properties.stringPropertyNames()) {
            if (name.equals(key) || name.endsWith("." + key)) {
                return properties.getProperty(name).trim();
            }
        }
        return DeploymentReport.UNKNOWN;
    }
}
