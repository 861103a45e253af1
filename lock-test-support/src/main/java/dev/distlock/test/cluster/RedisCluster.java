package dev.distlock.test.cluster;

import dev.distlock.test.Poll;
import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisCli;
import dev.distlock.test.RedisInfo;
import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A real Redis Cluster on loopback: by default 6 {@code redis-server} processes on free ports, 3 primaries with one
 * replica each, created with {@code redis-cli --cluster create}. Each node has its own directory and {@code nodes.conf};
 * persistence is off.
 *
 * <pre>{@code
 * try (RedisCluster cluster = RedisCluster.start()) {
 *     RedisClusterConfiguration config = new RedisClusterConfiguration(cluster.seedAddresses());
 *     ClusterNode primary = cluster.primaryForKey("lock:a");
 *     primary.kill();
 *     cluster.awaitFailover(primary);            // its replica now serves its slots
 *     primary.restart();
 *     cluster.awaitHealthy();                    // it is back, as a replica
 *     cluster.failover(cluster.replicasOf(cluster.primaryForKey("lock:a")).get(0));  // CLUSTER FAILOVER
 *     cluster.migrateSlot(HashSlots.of("lock:a"), cluster.primaries().get(2), phase -> { ... });
 *     cluster.reshard(cluster.primaries().get(0), cluster.primaries().get(1), 100);
 * }
 * }</pre>
 *
 * <p>Every wait is bounded (30 s for health, 2 min for {@code redis-cli}); failures say what was still wrong. In JUnit
 * tests prefer {@link RedisClusterExtension}, which also heals the cluster between tests.
 */
public final class RedisCluster implements AutoCloseable {

    /** The number of hash slots. */
    public static final int SLOTS = 16_384;

    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration CLI_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration MANUAL_FAILOVER_RETRY = Duration.ofSeconds(6);

    private final List<ClusterNode> nodes;
    private final ClusterHealth health;
    private final int replicasPerPrimary;
    private final Duration nodeTimeout;
    private final RedisCli cli;

    private RedisCluster(List<ClusterNode> nodes, int primaries, int replicasPerPrimary, Duration nodeTimeout,
            RedisCli cli) {
        this.nodes = List.copyOf(nodes);
        this.health = new ClusterHealth(nodes, primaries, replicasPerPrimary);
        this.replicasPerPrimary = replicasPerPrimary;
        this.nodeTimeout = nodeTimeout;
        this.cli = cli;
    }

    /**
     * Starts a 6-node cluster (3 primaries, 3 replicas) of the installed binary and waits until it is healthy.
     *
     * @return the running cluster; close it when done
     */
    public static RedisCluster start() {
        return builder().start();
    }

    /**
     * Options: another binary, another shape, another node timeout.
     *
     * @return a new builder
     */
    public static RedisClusterBuilder builder() {
        return new RedisClusterBuilder();
    }

    static RedisCluster start(RedisBinary binary, int primaries, int replicasPerPrimary, Duration nodeTimeout) {
        RedisCli cli = RedisCli.find();
        List<RedisServer> servers = RedisServer.builder()
                .binary(binary)
                .clusterNode()
                .args("--cluster-node-timeout", Long.toString(nodeTimeout.toMillis()),
                        "--cluster-replica-validity-factor", "0", // a replica may always take over
                        "--repl-diskless-sync", "yes",
                        "--repl-diskless-sync-delay", "0")
                .start(primaries * (1 + replicasPerPrimary));
        try {
            List<String> create = new ArrayList<>(List.of("--cluster", "create"));
            servers.forEach(server -> create.add(server.host() + ":" + server.port()));
            create.addAll(List.of("--cluster-replicas", Integer.toString(replicasPerPrimary), "--cluster-yes"));
            cli.run(CLI_TIMEOUT, create.toArray(String[]::new));
            List<ClusterNode> nodes = new ArrayList<>();
            for (RedisServer server : servers) {
                nodes.add(new ClusterNode(server, (String) server.command("CLUSTER", "MYID")));
            }
            RedisCluster cluster = new RedisCluster(nodes, primaries, replicasPerPrimary, nodeTimeout, cli);
            cluster.awaitHealthy();
            return cluster;
        } catch (RuntimeException | Error e) {
            RedisServer.killAll(servers, e);
            throw e;
        }
    }

    /** All nodes, in a fixed order (not by role: roles change with failovers). */
    public List<ClusterNode> nodes() {
        return nodes;
    }

    /**
     * The node with this id.
     *
     * @param id a node id
     * @return the node
     * @throws IllegalArgumentException if no node has it
     */
    public ClusterNode node(String id) {
        return nodes.stream().filter(node -> node.id().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no node " + id + " in " + nodes));
    }

    /** Every node's {@code host:port}: seeds for {@code RedisClusterConfiguration} or {@code spring.data.redis.cluster.nodes}. */
    public List<String> seedAddresses() {
        return nodes.stream().map(ClusterNode::address).toList();
    }

    /** Every node's URI, e.g. {@code redis://127.0.0.1:7000}: seeds for Lettuce's {@code RedisClusterClient}. */
    public List<String> seedUris() {
        return nodes.stream().map(ClusterNode::uri).toList();
    }

    /** The cluster as the first running node sees it ({@code CLUSTER NODES}). */
    public ClusterTopology topology() {
        return nodes.stream().filter(node -> node.isRunning() && !node.server().isSuspended()).findFirst()
                .orElseThrow(() -> new IllegalStateException("no node of the cluster is running"))
                .topology();
    }

    /** The primaries serving slots now, ordered by their first slot (as the first running node sees it). */
    public List<ClusterNode> primaries() {
        return topology().primaries().stream().map(info -> node(info.id())).toList();
    }

    /**
     * The replicas of a primary now.
     *
     * @param primary a primary
     * @return its replicas
     */
    public List<ClusterNode> replicasOf(ClusterNode primary) {
        return topology().replicasOf(primary.id()).stream().map(info -> node(info.id())).toList();
    }

    /**
     * The primary serving a slot now.
     *
     * @param slot a hash slot
     * @return the node
     * @throws IllegalStateException if no primary serves it
     */
    public ClusterNode primaryForSlot(int slot) {
        return topology().primaryForSlot(slot).map(info -> node(info.id()))
                .orElseThrow(() -> new IllegalStateException("no primary serves slot " + slot));
    }

    /**
     * The primary serving a key now ({@link HashSlots#of(String)}).
     *
     * @param key a key
     * @return the node
     */
    public ClusterNode primaryForKey(String key) {
        return primaryForSlot(HashSlots.of(key));
    }

    /**
     * Waits (at most 30 s) until the cluster is healthy: every node running with {@code cluster_state:ok}, all agreeing
     * on slots and roles, every primary with its replicas online, no slot open.
     *
     * @return the agreed topology
     * @throws IllegalStateException with what was still wrong when the time is up
     */
    public ClusterTopology awaitHealthy() {
        Poll.until("Redis Cluster healthy", HEALTH_TIMEOUT, health::problem);
        return topology();
    }

    /**
     * After {@link ClusterNode#kill()} of a primary: waits (at most 30 s) until the other nodes have failed it over,
     * i.e. each running node flags it {@code fail}, it serves no slot and all slots are served again.
     *
     * @param killed the killed primary
     * @return the topology after the failover, as a running node sees it
     */
    public ClusterTopology awaitFailover(ClusterNode killed) {
        Poll.until("failover of " + killed, HEALTH_TIMEOUT, () -> {
            for (ClusterNode node : nodes) {
                if (node == killed || !node.isRunning()) {
                    continue;
                }
                ClusterTopology view = node.topology();
                ClusterNodeInfo dead = view.node(killed.id()).orElseThrow();
                if (!dead.flags().contains("fail") || !dead.slots().isEmpty()
                        || view.slotOwners().keySet().stream().mapToInt(SlotRange::size).sum() != SLOTS
                        || view.primaries().stream().anyMatch(ClusterNodeInfo::isFailing)) {
                    return node + " sees:\n" + view;
                }
                String state = RedisInfo.field(node.command("CLUSTER", "INFO"), "cluster_state");
                if (!"ok".equals(state)) {
                    return node + " says cluster_state:" + state;
                }
            }
            return null;
        });
        return topology();
    }

    /**
     * {@code CLUSTER FAILOVER} on a replica: it takes over from its primary, which becomes its replica. Waits (at most
     * 30 s; the command is sent again if a manual failover timed out) until the roles have swapped and the cluster is
     * healthy.
     *
     * @param replica a replica whose primary is running
     * @return the agreed topology afterwards
     */
    public ClusterTopology failover(ClusterNode replica) {
        if (replica.isPrimary()) {
            throw new IllegalArgumentException(replica + " is a primary, not a replica");
        }
        replica.command("CLUSTER", "FAILOVER");
        long[] sentAt = {System.nanoTime()};
        Poll.until("CLUSTER FAILOVER on " + replica, HEALTH_TIMEOUT, () -> {
            if (replica.isPrimary()) {
                return health.problem();
            }
            if (System.nanoTime() - sentAt[0] > MANUAL_FAILOVER_RETRY.toNanos()) {
                sentAt[0] = System.nanoTime();
                replica.command("CLUSTER", "FAILOVER"); // a manual failover gives up after 5 s: ask again
            }
            return replica + " is not promoted yet";
        });
        return topology();
    }

    /**
     * Starts moving a slot by hand from the primary serving it to {@code target}: {@code SETSLOT IMPORTING} on the
     * target, then {@code SETSLOT MIGRATING} on the source. The returned migration moves the keys and completes it.
     *
     * @param slot a hash slot
     * @param target another primary
     * @return the open migration
     */
    public SlotMigration beginSlotMigration(int slot, ClusterNode target) {
        SlotMigration migration = prepareMigration(slot, target);
        migration.setImporting();
        migration.setMigrating();
        return migration;
    }

    /**
     * Moves a slot by hand from the primary serving it to {@code target}.
     *
     * @param slot a hash slot
     * @param target another primary
     */
    public void migrateSlot(int slot, ClusterNode target) {
        migrateSlot(slot, target, phase -> { });
    }

    /**
     * Moves a slot by hand from the primary serving it to {@code target}, calling {@code hook} after each
     * {@link MigrationPhase}, so that a test can act (or block) between the phases.
     *
     * @param slot a hash slot
     * @param target another primary
     * @param hook called with each phase reached, on the calling thread
     */
    public void migrateSlot(int slot, ClusterNode target, Consumer<MigrationPhase> hook) {
        SlotMigration migration = prepareMigration(slot, target);
        migration.setImporting();
        hook.accept(MigrationPhase.IMPORTING);
        migration.setMigrating();
        hook.accept(MigrationPhase.MIGRATING);
        migration.moveAllKeys();
        hook.accept(MigrationPhase.KEYS_MOVED);
        migration.complete();
        hook.accept(MigrationPhase.COMPLETED);
    }

    /**
     * Moves {@code slots} slots and their keys with {@code redis-cli --cluster reshard} and waits until the cluster is
     * healthy again.
     *
     * @param from the primary giving slots
     * @param to the primary receiving them
     * @param slots how many
     * @return what redis-cli printed
     */
    public String reshard(ClusterNode from, ClusterNode to, int slots) {
        String output = cli.run(CLI_TIMEOUT, "--cluster", "reshard", from.address(),
                "--cluster-from", from.id(), "--cluster-to", to.id(),
                "--cluster-slots", Integer.toString(slots), "--cluster-yes");
        awaitHealthy();
        return output;
    }

    /**
     * Brings the cluster back to a clean, healthy state: resumes suspended nodes, restarts killed ones, ends client
     * pauses, closes open slots ({@code SETSLOT STABLE}), waits until healthy, then flushes every primary's data and
     * every node's scripts (and waits until the replicas have the flush). Roles and slot assignments are not put back:
     * ask {@link #primaries()} and {@link #primaryForKey(String)}.
     */
    public void heal() {
        new ClusterHealer(this, replicasPerPrimary).heal();
    }

    /** The {@code cluster-node-timeout} the nodes run with. */
    public Duration nodeTimeout() {
        return nodeTimeout;
    }

    /** Kills every node (SIGKILL: there is nothing to save) and deletes their directories; idempotent. */
    @Override
    public void close() {
        RedisServer.killAll(nodes.stream().map(ClusterNode::server).toList());
    }

    @Override
    public String toString() {
        return "RedisCluster" + seedAddresses();
    }

    private SlotMigration prepareMigration(int slot, ClusterNode target) {
        Objects.requireNonNull(target, "target");
        ClusterNode source = primaryForSlot(slot);
        if (source == target) {
            throw new IllegalArgumentException(target + " already serves slot " + slot);
        }
        if (!target.isPrimary()) {
            throw new IllegalArgumentException(target + " is not a primary");
        }
        return new SlotMigration(this, slot, source, target);
    }
}
