package dev.distlock.benchmarks.topologies;

import dev.distlock.benchmarks.contenders.Contender;
import dev.distlock.benchmarks.contenders.DistlockContender;
import dev.distlock.benchmarks.contenders.LibraryVersion;
import dev.distlock.benchmarks.contenders.LockClient;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.benchmarks.redis.RedisStats;
import dev.distlock.core.support.StoreLockRegistry;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.redlock.RedlockLockRegistry;
import dev.distlock.test.Poll;
import dev.distlock.test.RedisServer;
import dev.distlock.test.cluster.ClusterNode;
import dev.distlock.test.cluster.RedisCluster;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock with its default settings on one Redis topology whose servers the benchmark starts on loopback ports:
 * a contender of the topology comparison. Each client stands for a process, with its own connections.
 */
public final class Topology implements Contender, AutoCloseable {

    /** The topologies, in the default order. */
    public static final List<String> NAMES = List.of("single", "cluster", "acks", "redlock");

    /** The topology every ratio is taken against. */
    public static final String BASELINE = "single";

    private static final String KEY_PREFIX = "bench-topology";
    private static final Duration SYNC_TIMEOUT = Duration.ofSeconds(30);
    private static final int REDLOCK_NODES = 3;

    private final String name;
    private final String description;
    private final RedisStats stats;
    private final Supplier<LockClient> clients;
    private final List<AutoCloseable> servers;

    private Topology(String name, String description, RedisStats stats, Supplier<LockClient> clients,
            List<AutoCloseable> servers) {
        this.name = name;
        this.description = description;
        this.stats = stats;
        this.clients = clients;
        this.servers = servers;
    }

    /**
     * Starts the servers of the topology called {@code name} and waits until they are ready.
     *
     * @throws IllegalArgumentException for an unknown name
     */
    public static Topology start(String name) {
        return switch (name) {
            case "single" -> single();
            case "cluster" -> cluster();
            case "acks" -> primaryWithReplica();
            case "redlock" -> redlock();
            default -> throw new IllegalArgumentException("unknown topology '" + name + "'; known: " + NAMES);
        };
    }

    private static Topology single() {
        RedisServer server = RedisServer.start();
        RedisAddress address = new RedisAddress(server.host(), server.port());
        return new Topology("single", "`RedisLockRegistry` on one redis-server (the main comparison's setup)",
                new RedisStats(server.client()), () -> redisClient(address, builder -> builder), List.of(server));
    }

    private static Topology cluster() {
        RedisCluster cluster = RedisCluster.start();
        List<ClusterNode> primaries = cluster.primaries();
        return new Topology("cluster", "`RedisLockRegistry` on a Redis Cluster of " + primaries.size()
                + " primaries with a replica each, Lettuce cluster client with adaptive and periodic topology "
                + "refresh; hand-off notices are classic `PUBLISH`, which the cluster bus copies to every node",
                new RedisStats(primaries.stream().map(node -> node.server().client()).toList(), true),
                () -> clusterClient(cluster), List.of(cluster));
    }

    private static Topology primaryWithReplica() {
        RedisServer primary = RedisServer.start();
        RedisServer replica = RedisServer.builder()
                .args("--replicaof", primary.host(), String.valueOf(primary.port())).start();
        Poll.until("replica in sync", SYNC_TIMEOUT, () -> {
            String info = (String) primary.command("INFO", "replication");
            return info.contains("state=online") ? null : info;
        });
        RedisAddress address = new RedisAddress(primary.host(), primary.port());
        return new Topology("acks", "`RedisLockRegistry` with its default replica acknowledgement (`acks=auto`: the "
                + "replica online, so `WAIT 1 50` after every acquisition, hand-off and renewal) on a primary with one "
                + "replica; counters are the primary's",
                new RedisStats(primary.client()), () -> redisClient(address, builder -> builder),
                List.of(primary, replica));
    }

    private static Topology redlock() {
        List<RedisServer> nodes = RedisServer.builder().start(REDLOCK_NODES);
        List<RedisAddress> addresses = nodes.stream().map(node -> new RedisAddress(node.host(), node.port())).toList();
        return new Topology("redlock", "`RedlockLockRegistry` on " + REDLOCK_NODES + " independent redis-servers "
                + "(default 100 ms node timeout; waiters poll); counters are summed over the nodes",
                new RedisStats(nodes.stream().map(RedisServer::client).toList(), false),
                () -> redlockClient(addresses), List.copyOf(nodes));
    }

    private static LockClient redisClient(RedisAddress address,
            UnaryOperator<RedisLockRegistry.Builder> settings) {
        LettuceConnectionFactory factory = address.newConnectionFactory();
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory).keyPrefix(KEY_PREFIX)).build();
        return DistlockContender.client(registry, registry::obtain, List.of(factory));
    }

    private static LockClient clusterClient(RedisCluster cluster) {
        ClusterTopologyRefreshOptions refresh = ClusterTopologyRefreshOptions.builder()
                .enableAllAdaptiveRefreshTriggers()
                .enablePeriodicRefresh(Duration.ofSeconds(30))
                .build();
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisClusterConfiguration(cluster.seedAddresses()), LettuceClientConfiguration.builder()
                        .clientOptions(ClusterClientOptions.builder().topologyRefreshOptions(refresh).build())
                        .build());
        factory.afterPropertiesSet();
        factory.start();
        RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix(KEY_PREFIX).build();
        return DistlockContender.client(registry, registry::obtain, List.of(factory));
    }

    private static LockClient redlockClient(List<RedisAddress> addresses) {
        List<LettuceConnectionFactory> factories = new ArrayList<>();
        addresses.forEach(address -> factories.add(address.newConnectionFactory()));
        RedlockLockRegistry registry = RedlockLockRegistry.builder(factories).keyPrefix(KEY_PREFIX).build();
        return DistlockContender.client(registry, registry::obtain, factories);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public String description() {
        return description + "; distlock " + LibraryVersion.distlock();
    }

    @Override
    public LockClient newClient() {
        return clients.get();
    }

    /** Counters of the servers that run the lock's commands. */
    public RedisStats stats() {
        return stats;
    }

    /** Stops the servers. */
    @Override
    public void close() {
        stats.close();
        for (int i = servers.size() - 1; i >= 0; i--) {
            try {
                servers.get(i).close();
            } catch (Exception ex) {
                throw new IllegalStateException("could not stop " + servers.get(i), ex);
            }
        }
    }
}
