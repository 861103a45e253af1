package dev.distlock.deployment;

import java.util.ArrayList;
import java.util.List;

/**
 * What one lock registry runs on, and what that setup cannot promise: the facts behind the guarantees per
 * topology, read from the deployment itself. Values are text as the server reported them; {@value #UNKNOWN} where it
 * could not be read (an ACL refusing {@code INFO} or {@code CONFIG}), said why in {@code unreadable}.
 *
 * @param registry the registry's bean name
 * @param backend {@code redis}, {@code redlock} or {@code memory}
 * @param servers each server as {@code host:port} (Redlock: all of them; a cluster or Sentinel: the one asked)
 * @param version the server's version, e.g. {@code 7.0.15} (Valkey reports the Redis version it matches)
 * @param topology {@code standalone}, {@code sentinel}, {@code cluster}, {@code redlock (3 servers, majority 2)}
 *        or {@code in memory}
 * @param replicas the replicas connected to the primary asked
 * @param acknowledgement which replicas an acquisition, hand-off and renewal wait for ({@code distlock.replication})
 * @param persistence {@code AOF}, {@code RDB snapshots}, {@code AOF and RDB}, {@code none} or {@value #UNKNOWN}
 * @param scripting how the lock operations run: as the function library ({@code FCALL}, Redis 7 and Valkey through
 *        a shared Lettuce connection, not on a cluster) or as scripts ({@code EVALSHA})
 * @param evictionPolicy the server's {@code maxmemory-policy}
 * @param cannotPromise what this setup cannot promise, one sentence each
 * @param unreadable what could not be read and why, or empty
 */
public record DeploymentReport(String registry, String backend, List<String> servers, String version,
        String topology, int replicas, String acknowledgement, String persistence, String scripting,
        String evictionPolicy, List<String> cannotPromise, List<String> unreadable) {

    /** A value that could not be read. */
    public static final String UNKNOWN = "unknown";

    /** The report as a log block: one line of facts, then one line per thing this setup cannot promise. */
    public String describe() {
        List<String> lines = new ArrayList<>();
        lines.add("distlock registry '" + registry + "' on " + backend + " " + String.join(", ", servers) + ": "
                + "server " + version + ", " + topology + ", " + replicas + " replica(s) connected, acknowledgement "
                + acknowledgement + ", persistence " + persistence + ", " + scripting + ", maxmemory-policy "
                + evictionPolicy);
        cannotPromise.forEach(limit -> lines.add("  cannot promise: " + limit));
        unreadable.forEach(reason -> lines.add("  not read: " + reason));
        return String.join(System.lineSeparator(), lines);
    }
}
