package dev.distlock.test.sentinel;

import dev.distlock.test.Poll;
import dev.distlock.test.RedisBinary;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A real Redis Sentinel set on loopback: a primary, its replica and three sentinels ({@code redis-server <conf>
 * --sentinel}, quorum 2), each a process on a free port with its own directory and configuration file; persistence is
 * off.
 *
 * <pre>{@code
 * try (RedisSentinelSet set = RedisSentinelSet.start()) {
 *     RedisSentinelConfiguration config = new RedisSentinelConfiguration(set.masterName(),
 *             new HashSet<>(set.sentinelAddresses()));
 *     RedisServer promoted = set.failover();     // SENTINEL FAILOVER, returns once all sentinels agree
 *     set.awaitHealthy();                        // until Sentinel has made the old primary a replica
 *     RedisServer killed = set.primary();
 *     set.killPrimary();                         // kill -9, returns once the replica took over
 *     set.restartAsReplica(killed);              // back, replicating the new primary
 * }
 * }</pre>
 *
 * <p>Roles change with failovers: {@link #primary()} and {@link #replica()} ask the sentinels. After a failover the old
 * primary, if alive, stays a primary until Sentinel reconfigures it (about 10 s, as in production): clients that keep
 * writing to it are the hazard replica acknowledgement guards against. Every wait is bounded; failures say what was still wrong. In JUnit
 * tests prefer {@link RedisSentinelExtension}, which also heals the set between tests.
 */
public final class RedisSentinelSet implements AutoCloseable {

    private static final Duration HEALTH_TIMEOUT = Duration.ofSeconds(30);
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;

    private final List<RedisServer> dataNodes;
    private final List<RedisServer> sentinels;
    private final String masterName;
    private final SentinelHealth health = new SentinelHealth(this);

    private RedisSentinelSet(List<RedisServer> dataNodes, List<RedisServer> sentinels, String masterName) {
        this.dataNodes = List.copyOf(dataNodes);
        this.sentinels = List.copyOf(sentinels);
        this.masterName = masterName;
    }

    /**
     * Starts a primary, a replica and three sentinels of the installed binary, master name {@code mymaster}.
     *
     * @return the running set; close it when done
     */
    public static RedisSentinelSet start() {
        return builder().start();
    }

    /**
     * Options: another binary, master name or Sentinel timings.
     *
     * @return a new builder
     */
    public static RedisSentinelBuilder builder() {
        return new RedisSentinelBuilder();
    }

    static RedisSentinelSet start(RedisBinary binary, String masterName, Duration downAfter, Duration failoverTimeout) {
        List<RedisServer> started = new ArrayList<>();
        try {
            RedisServer primary = dataNode(binary).start();
            started.add(primary);
            RedisServer replica = dataNode(binary).config(replicaOf(primary)).start();
            started.add(replica);
            // sentinels find replicas in the primary's INFO: start them once the replica is there
            Poll.until("replica in sync", HEALTH_TIMEOUT, () -> SentinelHealth.replicationProblem(primary, replica));
            started.addAll(RedisServer.builder()
                    .binary(binary)
                    .config("sentinel monitor " + masterName + " " + primary.host() + " " + primary.port() + " " + QUORUM,
                            "sentinel down-after-milliseconds " + masterName + " " + downAfter.toMillis(),
                            "sentinel failover-timeout " + masterName + " " + failoverTimeout.toMillis(),
                            "sentinel parallel-syncs " + masterName + " 1")
                    .args("--sentinel")
                    .start(SENTINELS));
            RedisSentinelSet set = new RedisSentinelSet(started.subList(0, 2), started.subList(2, 2 + SENTINELS),
                    masterName);
            set.awaitHealthy();
            return set;
        } catch (RuntimeException | Error e) {
            RedisServer.killAll(started, e);
            throw e;
        }
    }

    /** The name the sentinels monitor the primary under. */
    public String masterName() {
        return masterName;
    }

    /** The two data nodes, in a fixed order (the first was the primary at start). */
    public List<RedisServer> dataNodes() {
        return dataNodes;
    }

    /** The three sentinels. */
    public List<RedisServer> sentinels() {
        return sentinels;
    }

    /** The sentinels' {@code host:port}, for {@code RedisSentinelConfiguration} or {@code spring.data.redis.sentinel.nodes}. */
    public List<String> sentinelAddresses() {
        return sentinels.stream().map(s -> s.host() + ":" + s.port()).toList();
    }

    /** A Lettuce URI for the set, e.g. {@code redis-sentinel://127.0.0.1:26379,127.0.0.1:26380#mymaster}. */
    public String sentinelUri() {
        return "redis-sentinel://" + String.join(",", sentinelAddresses()) + "#" + masterName;
    }

    /**
     * The primary's address as one sentinel reports it ({@code SENTINEL GET-MASTER-ADDR-BY-NAME}).
     *
     * @param sentinel one of {@link #sentinels()}
     * @return {@code host:port}
     */
    public String primaryAddress(RedisServer sentinel) {
        List<?> address = (List<?>) sentinel.command("SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName);
        return address.get(0) + ":" + address.get(1);
    }

    /** The data node the first running sentinel names as primary. */
    public RedisServer primary() {
        RedisServer sentinel = sentinels.stream().filter(RedisServer::isRunning).findFirst()
                .orElseThrow(() -> new IllegalStateException("no sentinel is running"));
        String address = primaryAddress(sentinel);
        return dataNodeOnPort(Integer.parseInt(address.substring(address.lastIndexOf(':') + 1)));
    }

    /** The data node that is not {@link #primary()}. */
    public RedisServer replica() {
        RedisServer primary = primary();
        return dataNodes.stream().filter(node -> node != primary).findFirst().orElseThrow();
    }

    /**
     * Waits (at most 30 s) until the set is healthy: all processes run, all sentinels agree on the primary and see the
     * replica and each other, and the replica is in sync.
     *
     * @throws IllegalStateException with what was still wrong when the time is up
     */
    public void awaitHealthy() {
        Poll.until("Sentinel set healthy", HEALTH_TIMEOUT, health::problem);
    }

    /**
     * {@code SENTINEL FAILOVER}: promotes the replica without agreement of the other sentinels (retried while Sentinel
     * answers {@code INPROG} or {@code NOGOODSLAVE}), then waits (at most 60 s) until every running sentinel names it
     * and it says it is a primary. A failover that Sentinel gave up (its promotion took longer than the failover
     * timeout, as happens on a loaded machine) is asked for again. The old primary is reconfigured by Sentinel later
     * (see the class comment).
     *
     * @return the new primary
     */
    public RedisServer failover() {
        RedisServer next = replica();
        RedisServer sentinel = sentinels.stream().filter(RedisServer::isRunning).findFirst().orElseThrow();
        requestFailover(sentinel);
        String expected = next.host() + ":" + next.port();
        Poll.until("sentinels agree on " + expected, HEALTH_TIMEOUT.multipliedBy(2), () -> {
            String problem = promotionProblem(next);
            // in this order: a failover that ends between the two looks has promoted the replica by then
            if (problem != null && !failingOver(sentinel) && !isPrimary(next)) {
                requestFailover(sentinel);
            }
            return problem;
        });
        return next;
    }

    private void requestFailover(RedisServer sentinel) {
        Poll.until("SENTINEL FAILOVER accepted", HEALTH_TIMEOUT, () -> {
            try {
                sentinel.command("SENTINEL", "FAILOVER", masterName);
                return null;
            } catch (IllegalStateException e) {
                String message = e.getMessage().toUpperCase(Locale.ROOT);
                if (message.startsWith("INPROG") || message.startsWith("NOGOODSLAVE")) {
                    return e.getMessage();
                }
                throw e;
            }
        });
    }

    private boolean failingOver(RedisServer sentinel) {
        return String.valueOf(sentinel.command("SENTINEL", "MASTER", masterName)).contains("failover_in_progress");
    }

    private static boolean isPrimary(RedisServer node) {
        return "master".equals(((List<?>) node.command("ROLE")).get(0));
    }

    /**
     * Kills the primary with SIGKILL and waits (at most 30 s) until the sentinels have failed over to the replica.
     *
     * @return the new primary; the old one stays down (see {@link #restartAsReplica(RedisServer)})
     */
    public RedisServer killPrimary() {
        RedisServer old = primary();
        RedisServer next = replica();
        old.kill();
        awaitPromoted(next);
        return next;
    }

    /**
     * Starts a data node again (stopping it first if running) as a replica of the current primary, through
     * {@code replicaof} in its configuration file, and waits until the set is healthy.
     *
     * @param node one of {@link #dataNodes()}, not the current primary
     */
    public void restartAsReplica(RedisServer node) {
        RedisServer primary = primary();
        if (node == primary) {
            throw new IllegalArgumentException(node + " is the primary");
        }
        writeReplicaOf(node, primary);
        node.restart();
        awaitHealthy();
    }

    /**
     * Brings the set back to a clean, healthy state: resumes suspended processes, restarts killed ones (a data node as
     * a replica of the sentinels' primary), reconfigures a stale primary as replica, waits until healthy, then flushes
     * the data and scripts. Roles are not put back: ask {@link #primary()}.
     */
    public void heal() {
        new SentinelHealer(this, health).heal();
    }

    /** Kills every process (SIGKILL: there is nothing to save) and deletes their directories; idempotent. */
    @Override
    public void close() {
        RedisServer.killAll(processes());
    }

    @Override
    public String toString() {
        return "RedisSentinelSet[" + masterName + ", data " + dataNodes.stream().map(RedisServer::port).toList()
                + ", sentinels " + sentinels.stream().map(RedisServer::port).toList() + "]";
    }

    /** Every process: the data nodes, then the sentinels. */
    public List<RedisServer> processes() {
        return Stream.concat(dataNodes.stream(), sentinels.stream()).toList();
    }

    RedisServer dataNodeOnPort(int port) {
        return dataNodes.stream().filter(node -> node.port() == port).findFirst()
                .orElseThrow(() -> new IllegalStateException("the sentinels name port " + port
                        + ", which is none of the data nodes " + dataNodes));
    }

    /** Waits until every running sentinel names {@code next} and it says it is a primary. */
    void awaitPromoted(RedisServer next) {
        Poll.until("sentinels agree on " + next.host() + ":" + next.port(), HEALTH_TIMEOUT,
                () -> promotionProblem(next));
    }

    /** What still keeps {@code next} from being the primary every running sentinel names; {@code null} if nothing. */
    private String promotionProblem(RedisServer next) {
        String expected = next.host() + ":" + next.port();
        for (RedisServer sentinel : sentinels) {
            if (sentinel.isRunning() && !primaryAddress(sentinel).equals(expected)) {
                return sentinel + " names " + primaryAddress(sentinel);
            }
        }
        return isPrimary(next) ? null : next + " is still " + ((List<?>) next.command("ROLE")).get(0);
    }

    /** Rewrites {@code node}'s configuration file to replicate {@code primary} from its next start. */
    static void writeReplicaOf(RedisServer node, RedisServer primary) {
        Path config = node.configFile().orElseThrow();
        try {
            String kept = Files.readAllLines(config, StandardCharsets.UTF_8).stream()
                    .filter(line -> !line.toLowerCase(Locale.ROOT).matches("\\s*(replicaof|slaveof)\\s.*"))
                    .collect(Collectors.joining("\n", "", "\n"));
            Files.writeString(config, primary == null ? kept : kept + replicaOf(primary) + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot rewrite " + config, e);
        }
    }

    private static String replicaOf(RedisServer primary) {
        return "replicaof " + primary.host() + " " + primary.port();
    }

    private static RedisServerBuilder dataNode(RedisBinary binary) {
        return RedisServer.builder()
                .binary(binary)
                .config() // a file of its own, which Sentinel rewrites when it reconfigures the node
                .args("--repl-diskless-sync", "yes", "--repl-diskless-sync-delay", "0");
    }
}
