package dev.distlock.test.sentinel;

import dev.distlock.test.Poll;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RespClient;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** Brings a {@link RedisSentinelSet} back to a clean, healthy state between tests ({@link RedisSentinelSet#heal()}). */
final class SentinelHealer {

    private static final Duration HEAL_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(2);

    private final RedisSentinelSet set;
    private final SentinelHealth health;

    SentinelHealer(RedisSentinelSet set, SentinelHealth health) {
        this.set = set;
        this.health = health;
    }

    void heal() {
        for (RedisServer server : set.processes()) {
            server.resume();
        }
        for (RedisServer sentinel : set.sentinels()) {
            if (!sentinel.isRunning()) {
                sentinel.restart(); // its configuration file holds what it knew
            }
        }
        for (RedisServer node : set.dataNodes()) {
            unpause(node);
        }
        Poll.until("Sentinel set healed", HEAL_TIMEOUT, () -> {
            String problem = health.problem();
            if (problem != null) {
                repair();
            }
            return problem;
        });
        RedisServer primary = set.primary();
        long acked = primary.writeAndWait(1, Duration.ofSeconds(5), "FLUSHALL");
        if (acked < 1) {
            throw new IllegalStateException("the replica did not acknowledge FLUSHALL on " + primary);
        }
        for (RedisServer node : set.dataNodes()) {
            node.command("SCRIPT", "FLUSH");
        }
    }

    /**
     * One repair step once the sentinels agree on a primary: restart killed data nodes (the primary as primary, the
     * other as its replica) and, unless a failover is in progress, make a data node that is not the sentinels' primary
     * replicate it (what Sentinel itself does only after about 10 s).
     */
    private void repair() {
        RedisServer primary = agreedPrimary();
        if (primary == null) {
            return; // sentinels disagree or are failing over: let them finish
        }
        for (RedisServer node : set.dataNodes()) {
            if (!node.isRunning()) {
                RedisSentinelSet.writeReplicaOf(node, node == primary ? null : primary);
                node.restart();
            } else if (node != primary && primary.isRunning() && !replicates(node, primary)) {
                node.command("REPLICAOF", primary.host(), Integer.toString(primary.port()));
                node.command("CONFIG", "REWRITE");
            }
        }
    }

    /** The data node all running sentinels name, none of them failing over; else {@code null}. */
    private RedisServer agreedPrimary() {
        String agreed = null;
        for (RedisServer sentinel : set.sentinels()) {
            if (!sentinel.isRunning()) {
                continue;
            }
            Map<String, String> master = SentinelReplies.fields(
                    sentinel.command("SENTINEL", "MASTER", set.masterName()));
            String address = master.get("ip") + ":" + master.get("port");
            if (master.get("flags").contains("failover") || (agreed != null && !agreed.equals(address))) {
                return null;
            }
            agreed = address;
        }
        return agreed == null ? null : set.dataNodeOnPort(Integer.parseInt(agreed.substring(agreed.indexOf(':') + 1)));
    }

    private static boolean replicates(RedisServer node, RedisServer primary) {
        List<?> role = (List<?>) node.command("ROLE");
        return "slave".equals(role.get(0)) && Long.valueOf(primary.port()).equals(role.get(2));
    }

    /** Ends a client pause where the server can (Redis 6.2 and later); a failure is left to the health check. */
    private static void unpause(RedisServer node) {
        if (!node.isRunning() || !node.binary().isAtLeastRedis(6, 2)) {
            return;
        }
        try (RespClient client = node.client(CLIENT_TIMEOUT)) {
            client.command("CLIENT", "UNPAUSE");
        } catch (RuntimeException e) {
            // reported by the health check if it matters
        }
    }
}
