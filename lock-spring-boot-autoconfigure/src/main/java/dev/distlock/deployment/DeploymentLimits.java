package dev.distlock.deployment;

import java.util.ArrayList;
import java.util.List;

/**
 * What a deployment cannot promise, from its facts: the rules of docs/guarantees.md ("What a Redis lock can and cannot
 * promise" and its table per topology), in one place.
 */
final class DeploymentLimits {

    static final String PAUSES = "a holder paused longer than its lease, or a clock stepped on the Redis host, "
            + "can overlap the next holder: only fencing tokens checked by the resource keep its late writes out";

    private DeploymentLimits() {
    }

    /**
     * The limits of one Redis (standalone, Sentinel or cluster).
     *
     * @param acks {@code distlock.replication.acks}: {@code auto}, {@code 0} or a number of replicas
     */
    static List<String> ofRedis(String topology, ServerFacts facts, String acks) {
        List<String> limits = new ArrayList<>();
        persistence(facts.persistence(), limits);
        eviction(facts.evictionPolicy(), limits);
        if (topology.equals("cluster")) {
            limits.add("a failover of a shard's primary may forget the grants and renewals its replicas had not "
                    + "received yet (replica acknowledgement is not available on a cluster): two holders for up "
                    + "to a lease, told apart by their fencing tokens");
        } else if (facts.replicas() == 0) {
            limits.add(topology.equals("sentinel") ? "the primary has no replica connected: a failover now may "
                    + "forget every lock" : "no replica and no failover: while this server is down, locking fails");
        } else if (acks.equals("0")) {
            limits.add("acknowledgement is off (acks=0): a failover may forget the last grants and renewals");
        } else if (acks.equals("auto")) {
            limits.add("a replica silent for about twelve seconds stops counting (acks=auto): a failover to it may "
                    + "forget the grants made since, two holders for up to a lease, told apart by fencing tokens");
        } else {
            limits.add("locking fails while fewer than " + acks + " replica(s) acknowledge (acks=" + acks + ")");
        }
        limits.add(PAUSES);
        return limits;
    }

    /** The limits of Redlock over servers with these facts. */
    static List<String> ofRedlock(List<ServerFacts> servers) {
        List<String> limits = new ArrayList<>();
        servers.stream().map(ServerFacts::persistence).distinct().forEach(persistence -> persistence(persistence,
                limits));
        servers.stream().map(ServerFacts::evictionPolicy).distinct().forEach(policy -> eviction(policy, limits));
        limits.add("a server restarted without its data before the longest lease has passed can help grant a "
                + "second holder; a majority down makes locking fail");
        limits.add(PAUSES);
        return limits.stream().distinct().toList();
    }

    private static void persistence(String persistence, List<String> limits) {
        if (persistence.equals("none")) {
            limits.add("no persistence: a restart of Redis forgets every lock, and a second process can acquire "
                    + "while the first still works (fencing tokens keep growing)");
        } else if (persistence.equals(DeploymentReport.UNKNOWN)) {
            limits.add("persistence unknown: if Redis runs without it, a restart forgets every lock");
        }
    }

    private static void eviction(String policy, List<String> limits) {
        if (policy.equals(DeploymentReport.UNKNOWN)) {
            limits.add("maxmemory-policy unknown: any policy but noeviction can evict held locks");
        } else if (!policy.equals("noeviction")) {
            limits.add("maxmemory-policy " + policy + " can evict held locks when memory runs short: set "
                    + "noeviction");
        }
    }
}
