package dev.distlock.test.sentinel;

import dev.distlock.test.RedisInfo;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RespClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * What "healthy" means for a {@link RedisSentinelSet}: every process runs; every sentinel names the same data node as
 * primary, sees it as a plain {@code master} (not down, no failover in progress), knows the other sentinels, and
 * sees the other data node as a plain {@code slave} (reachable, not down); that node really is the primary and the
 * other replicates it, online and in sync.
 */
final class SentinelHealth {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(2);

    private final RedisSentinelSet set;

    SentinelHealth(RedisSentinelSet set) {
        this.set = set;
    }

    /** What is wrong now, or {@code null} when healthy. */
    String problem() {
        for (RedisServer server : set.processes()) {
            if (!server.isRunning() || server.isSuspended()) {
                return server + " is not running";
            }
        }
        Integer primaryPort = null;
        for (RedisServer sentinel : set.sentinels()) {
            try (RespClient client = sentinel.client(PROBE_TIMEOUT)) {
                int port = Integer.parseInt(String.valueOf(
                        ((List<?>) client.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", set.masterName())).get(1)));
                if (primaryPort != null && port != primaryPort) {
                    return "sentinels disagree on the primary: port " + primaryPort + " or " + port;
                }
                primaryPort = port;
                String problem = sentinelProblem(sentinel, client, port);
                if (problem != null) {
                    return problem;
                }
            }
        }
        RedisServer primary = set.dataNodeOnPort(primaryPort);
        return replicationProblem(primary, set.dataNodes().stream().filter(node -> node != primary).findFirst()
                .orElseThrow());
    }

    private String sentinelProblem(RedisServer sentinel, RespClient client, int primaryPort) {
        Map<String, String> master = SentinelReplies.fields(client.command("SENTINEL", "MASTER", set.masterName()));
        int otherSentinels = set.sentinels().size() - 1;
        if (!"master".equals(master.get("flags"))
                || !Integer.toString(otherSentinels).equals(master.get("num-other-sentinels"))) {
            return sentinel + " sees the primary as " + master.get("flags") + " with "
                    + master.get("num-other-sentinels") + " other sentinels, expected master and " + otherSentinels;
        }
        List<Map<String, String>> replicas =
                SentinelReplies.records(client.command("SENTINEL", "REPLICAS", set.masterName()));
        // not master-link-status: Sentinel refreshes it from the replica's INFO only every 10 s
        if (replicas.size() != 1 || !"slave".equals(replicas.get(0).get("flags"))
                || Integer.parseInt(replicas.get(0).get("port")) == primaryPort) {
            return sentinel + " sees the replicas as " + replicas;
        }
        return null;
    }

    /** What is wrong with the replication from {@code primary} to {@code replica}, or {@code null}. */
    static String replicationProblem(RedisServer primary, RedisServer replica) {
        Map<String, String> ofPrimary = RedisInfo.parse(primary.command("INFO", "replication"));
        if (!"master".equals(ofPrimary.get("role")) || !"1".equals(ofPrimary.get("connected_slaves"))
                || !ofPrimary.getOrDefault("slave0", "").contains("state=online")) {
            return primary + " is " + ofPrimary.get("role") + " with replicas " + ofPrimary.get("connected_slaves")
                    + ": " + ofPrimary.get("slave0");
        }
        Map<String, String> ofReplica = RedisInfo.parse(replica.command("INFO", "replication"));
        if (!"slave".equals(ofReplica.get("role"))
                || !Integer.toString(primary.port()).equals(ofReplica.get("master_port"))
                || !"up".equals(ofReplica.get("master_link_status"))
                || !"0".equals(ofReplica.get("master_sync_in_progress"))) {
            return replica + " is " + ofReplica.get("role") + " of port " + ofReplica.get("master_port")
                    + " with master_link_status:" + ofReplica.get("master_link_status");
        }
        return null;
    }
}
