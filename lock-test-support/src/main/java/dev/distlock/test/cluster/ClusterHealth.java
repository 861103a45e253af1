package dev.distlock.test.cluster;

import dev.distlock.test.RedisInfo;
import dev.distlock.test.RespClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What "healthy" means for a {@link RedisCluster}: every node runs and says {@code cluster_state:ok} with all slots
 * served and every node known and reachable; all nodes agree on who serves which slots and who replicates whom; the
 * expected number of primaries each have their replicas, online and in sync; no slot is being migrated.
 */
final class ClusterHealth {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final List<ClusterNode> nodes;
    private final int primaries;
    private final int replicasPerPrimary;

    ClusterHealth(List<ClusterNode> nodes, int primaries, int replicasPerPrimary) {
        this.nodes = List.copyOf(nodes);
        this.primaries = primaries;
        this.replicasPerPrimary = replicasPerPrimary;
    }

    /** What is wrong now, or {@code null} when healthy. */
    String problem() {
        List<ClusterTopology> views = new ArrayList<>();
        for (ClusterNode node : nodes) {
            if (!node.isRunning() || node.server().isSuspended()) {
                return node + " is not running";
            }
            try (RespClient client = node.server().client(PROBE_TIMEOUT)) {
                String problem = nodeProblem(node, client, views);
                if (problem != null) {
                    return problem;
                }
            }
        }
        ClusterTopology first = views.get(0);
        if (first.primaries().size() != primaries) {
            return "expected " + primaries + " primaries serving slots:\n" + first;
        }
        for (ClusterNodeInfo primary : first.primaries()) {
            if (first.replicasOf(primary.id()).size() != replicasPerPrimary) {
                return "expected " + replicasPerPrimary + " replicas of " + primary.address() + ":\n" + first;
            }
        }
        for (ClusterTopology view : views) {
            if (!view.slotOwners().equals(first.slotOwners()) || !roles(view).equals(roles(first))) {
                return "nodes disagree:\n" + first + "versus\n" + view;
            }
        }
        return null;
    }

    private String nodeProblem(ClusterNode node, RespClient client, List<ClusterTopology> views) {
        Map<String, String> info = RedisInfo.parse(client.command("CLUSTER", "INFO"));
        if (!"ok".equals(info.get("cluster_state"))
                || !Integer.toString(RedisCluster.SLOTS).equals(info.get("cluster_slots_ok"))
                || !Integer.toString(nodes.size()).equals(info.get("cluster_known_nodes"))) {
            return node + " says cluster_state:" + info.get("cluster_state") + ", cluster_slots_ok:"
                    + info.get("cluster_slots_ok") + ", cluster_known_nodes:" + info.get("cluster_known_nodes");
        }
        ClusterTopology view = ClusterTopology.parse((String) client.command("CLUSTER", "NODES"));
        ClusterNodeInfo myself = view.myself();
        if (!myself.migrating().isEmpty() || !myself.importing().isEmpty()) {
            return node + " has open slots: migrating " + myself.migrating() + ", importing " + myself.importing();
        }
        for (ClusterNodeInfo other : view.nodes()) {
            if (other.isFailing() || other.flags().contains("handshake") || other.flags().contains("noaddr")
                    || !other.connected()) {
                return node + " sees " + other.address() + " as " + other.flags()
                        + (other.connected() ? "" : ", disconnected");
            }
        }
        Map<String, String> replication = RedisInfo.parse(client.command("INFO", "replication"));
        if (myself.isReplica()) {
            if (!"up".equals(replication.get("master_link_status"))
                    || !"0".equals(replication.get("master_sync_in_progress"))) {
                return node + " replicates with master_link_status:" + replication.get("master_link_status")
                        + ", master_sync_in_progress:" + replication.get("master_sync_in_progress");
            }
        } else {
            int connected = Integer.parseInt(replication.getOrDefault("connected_slaves", "0"));
            if (connected != replicasPerPrimary) {
                return node + " has " + connected + " connected replicas, expected " + replicasPerPrimary;
            }
            for (int i = 0; i < connected; i++) {
                String replica = replication.getOrDefault("slave" + i, "");
                if (!replica.contains("state=online")) {
                    return node + " has a replica not online yet: " + replica;
                }
            }
        }
        views.add(view);
        return null;
    }

    /** Node id to the id of its primary ({@code -} for a primary). */
    private static Map<String, String> roles(ClusterTopology view) {
        Map<String, String> roles = new TreeMap<>();
        view.nodes().forEach(node -> roles.put(node.id(), node.isPrimary() ? "-" : String.valueOf(node.primaryId())));
        return roles;
    }
}
