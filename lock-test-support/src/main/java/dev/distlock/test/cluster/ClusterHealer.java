package dev.distlock.test.cluster;

import dev.distlock.test.RespClient;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

/** Brings a {@link RedisCluster} back to a clean, healthy state between tests ({@link RedisCluster#heal()}). */
final class ClusterHealer {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(2);
    private static final Duration WAIT = Duration.ofSeconds(5);

    private final RedisCluster cluster;
    private final int replicasPerPrimary;

    ClusterHealer(RedisCluster cluster, int replicasPerPrimary) {
        this.cluster = cluster;
        this.replicasPerPrimary = replicasPerPrimary;
    }

    void heal() {
        for (ClusterNode node : cluster.nodes()) {
            node.server().resume();
            if (!node.isRunning()) {
                node.restart();
            }
            unpauseAndStabilize(node);
        }
        cluster.awaitHealthy();
        for (ClusterNode primary : cluster.primaries()) {
            long acked = primary.server().writeAndWait(replicasPerPrimary, WAIT, "FLUSHALL");
            if (acked < replicasPerPrimary) {
                throw new IllegalStateException("only " + acked + " replicas of " + primary + " acknowledged FLUSHALL");
            }
        }
        for (ClusterNode node : cluster.nodes()) {
            node.command("SCRIPT", "FLUSH");
        }
    }

    /** Ends a client pause (a node that does not answer is restarted) and closes the node's open slots. */
    private static void unpauseAndStabilize(ClusterNode node) {
        try (RespClient client = node.server().client(CLIENT_TIMEOUT)) {
            if (node.server().binary().isAtLeastRedis(6, 2)) {
                client.command("CLIENT", "UNPAUSE");
            }
            ClusterNodeInfo myself = ClusterTopology.parse((String) client.command("CLUSTER", "NODES")).myself();
            for (int slot : List.copyOf(myself.migrating().keySet())) {
                client.command("CLUSTER", "SETSLOT", Integer.toString(slot), "STABLE");
            }
            for (int slot : List.copyOf(myself.importing().keySet())) {
                client.command("CLUSTER", "SETSLOT", Integer.toString(slot), "STABLE");
            }
        } catch (UncheckedIOException e) {
            node.restart(); // paused for long (CLIENT PAUSE before 6.2 cannot be ended): a restart ends it
        }
    }
}
