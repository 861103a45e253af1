package dev.distlock.deployment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisSentinelConfiguration;

/**
 * The deployment reports of an application's lock registries: each read afresh when asked (a few {@code INFO}
 * commands per server), and all of them logged once when the application is ready.
 *
 * @since 0.1.0
 */
public final class DeploymentReports {

    private static final Log logger = LogFactory.getLog(DeploymentReports.class);

    private final Map<String, Supplier<DeploymentReport>> readers;

    /** The reports read by {@code readers}, by registry bean name. */
    public DeploymentReports(Map<String, Supplier<DeploymentReport>> readers) {
        this.readers = Map.copyOf(readers);
    }

    /** Every registry's report, read now, by bean name. */
    public List<DeploymentReport> read() {
        List<DeploymentReport> reports = new ArrayList<>();
        readers.keySet().stream().sorted().forEach(registry -> reports.add(readers.get(registry).get()));
        return reports;
    }

    /** Logs every report: INFO, or WARN for a deployment that could not be read. */
    public void log() {
        for (DeploymentReport report : read()) {
            if (report.unreadable().isEmpty()) {
                logger.info(report.describe());
            } else {
                logger.warn(report.describe());
            }
        }
    }

    /**
     * The report of a registry on the Redis behind {@code factory}: one server, a Sentinel-managed primary or a
     * cluster. A server that cannot be reached yields a report saying so; nothing is thrown.
     *
     * @param acks {@code distlock.replication.acks} of the registry
     */
    public static DeploymentReport redis(String registry, RedisConnectionFactory factory, String acks) {
        ServerFacts facts = facts(factory);
        String topology = sentinelManaged(factory) ? "sentinel"
                : "cluster".equals(facts.mode()) ? "cluster" : "standalone";
        String acknowledgement = topology.equals("cluster") ? "none (not available on a cluster)"
                : facts.replicas() == 0 ? "none (no replica)" : acks.equals("auto")
                        ? "the replicas online (acks=auto)" : acks.equals("0") ? "none (acks=0)"
                        : acks + " replica(s) (acks=" + acks + ")";
        return new DeploymentReport(registry, "redis", List.of(describe(factory)), facts.version(), topology,
                facts.replicas(), acknowledgement, facts.persistence(),
                scripting(facts.version(), !topology.equals("cluster") && sharedLettuce(factory)),
                facts.evictionPolicy(), DeploymentLimits.ofRedis(topology, facts, acks), facts.unreadable());
    }

    /** The report of a Redlock registry over these independent servers, by {@code host:port}. */
    public static DeploymentReport redlock(String registry, Map<String, ? extends RedisConnectionFactory> servers) {
        List<ServerFacts> facts = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        List<String> versions = new ArrayList<>();
        servers.forEach((server, factory) -> {
            ServerFacts read = facts(factory);
            facts.add(read);
            versions.add(read.version());
            read.unreadable().forEach(reason -> unreadable.add(server + ": " + reason));
        });
        List<String> distinct = versions.stream().distinct().toList();
        String persistence = String.join(" / ", facts.stream().map(ServerFacts::persistence).distinct().toList());
        String policies = String.join(" / ", facts.stream().map(ServerFacts::evictionPolicy).distinct().toList());
        return new DeploymentReport(registry, "redlock", List.copyOf(servers.keySet()), String.join(" / ", distinct),
                "redlock (" + servers.size() + " servers, majority " + (servers.size() / 2 + 1) + ")", 0,
                "none (independent primaries)", persistence, scripting(distinct.get(0), true), policies,
                DeploymentLimits.ofRedlock(facts), unreadable);
    }

    /** The report of an in-memory registry. */
    public static DeploymentReport memory(String registry) {
        return new DeploymentReport(registry, "memory", List.of("this JVM"), "-", "in memory", 0, "-", "none", "-",
                "-", List.of("locks exclude only the threads of this JVM, and nothing survives its restart"),
                List.of());
    }

    private static ServerFacts facts(RedisConnectionFactory factory) {
        try (RedisConnection connection = factory.getConnection()) {
            return ServerFacts.read(connection.serverCommands());
        } catch (RuntimeException unreachable) {
            String unknown = DeploymentReport.UNKNOWN;
            return new ServerFacts(unknown, unknown, 0, unknown, unknown,
                    List.of("Redis could not be reached: " + unreachable.getMessage()));
        }
    }

    /**
     * How the lock operations run: as the function library on Redis 7 and Valkey when they go through one shared
     * connection that can call it (a shared Lettuce connection, not a cluster's), as scripts otherwise.
     */
    private static String scripting(String version, boolean functionsPossible) {
        if (!functionsPossible) {
            return "scripts (EVALSHA)";
        }
        return version.equals(DeploymentReport.UNKNOWN) ? "functions or scripts (version unknown)"
                : version.compareTo("7") >= 0 ? "functions (FCALL; scripts by EVALSHA if refused)"
                        : "scripts (EVALSHA)";
    }

    private static boolean sharedLettuce(RedisConnectionFactory factory) {
        return Boolean.TRUE.equals(configuration(factory, "getShareNativeConnection"))
                && factory.getClass().getSimpleName().startsWith("Lettuce");
    }

    private static boolean sentinelManaged(RedisConnectionFactory factory) {
        return configuration(factory, "getSentinelConfiguration") != null;
    }

    /** Where the factory connects, as its configuration says (Lettuce's and Jedis's factories alike). */
    private static String describe(RedisConnectionFactory factory) {
        if (configuration(factory, "getSentinelConfiguration") instanceof RedisSentinelConfiguration sentinel) {
            return "master " + sentinel.getMaster().getName() + " via sentinels " + sentinel.getSentinels();
        }
        if (configuration(factory, "getClusterConfiguration") instanceof RedisClusterConfiguration cluster) {
            return "cluster seeds " + cluster.getClusterNodes();
        }
        Object host = configuration(factory, "getHostName");
        Object port = configuration(factory, "getPort");
        return host != null ? host + ":" + port : factory.getClass().getSimpleName();
    }

    /**
     * A getter of the client's factory, called by name: Lettuce's and Jedis's factories both have it, and naming
     * either type would load a client the application may not have.
     */
    private static Object configuration(RedisConnectionFactory factory, String getter) {
        try {
            return factory.getClass().getMethod(getter).invoke(factory);
        } catch (ReflectiveOperationException | RuntimeException none) {
            return null;
        }
    }
}
