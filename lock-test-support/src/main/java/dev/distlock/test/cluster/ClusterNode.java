package dev.distlock.test.cluster;

import dev.distlock.test.RedisServer;
import dev.distlock.test.RespClient;
import java.time.Duration;
import java.util.List;

/**
 * One node of a {@link RedisCluster}: a {@link RedisServer} in cluster mode with a node id that survives its restarts
 * (its {@code nodes.conf} stays in its directory). Whether it is a primary or a replica changes with failovers; ask
 * {@link #isPrimary()} or the cluster's {@link RedisCluster#topology()}.
 */
public final class ClusterNode {

    private static final Duration CLIENT_TIMEOUT = Duration.ofSeconds(5);

    private final RedisServer server;
    private final String id;

    ClusterNode(RedisServer server, String id) {
        this.server = server;
        this.id = id;
    }

    /** The node id (40 hex characters). */
    public String id() {
        return id;
    }

    /** The server process, for faults beyond those here ({@code suspend()}, {@code pauseClients(...)}). */
    public RedisServer server() {
        return server;
    }

    /** Its address, {@code 127.0.0.1}. */
    public String host() {
        return server.host();
    }

    /** Its client port (the cluster bus listens on this plus 10000). */
    public int port() {
        return server.port();
    }

    /** Its address as {@code host:port}, as {@code spring.data.redis.cluster.nodes} takes it. */
    public String address() {
        return host() + ":" + port();
    }

    /** Its URI, e.g. {@code redis://127.0.0.1:7000}. */
    public String uri() {
        return server.uri();
    }

    /**
     * Runs one command on this node (no redirection is followed).
     *
     * @param args the command and its arguments
     * @return the reply, as {@link RespClient} maps it
     */
    public Object command(String... args) {
        try (RespClient client = server.client(CLIENT_TIMEOUT)) {
            return client.command(args);
        }
    }

    /**
     * The cluster as this node sees it ({@code CLUSTER NODES}).
     *
     * @return a snapshot
     */
    public ClusterTopology topology() {
        return ClusterTopology.parse((String) command("CLUSTER", "NODES"));
    }

    /** Whether this node says it is a primary ({@code ROLE}). */
    public boolean isPrimary() {
        return "master".equals(((List<?>) command("ROLE")).get(0));
    }

    /** Whether the process is alive (it may be suspended). */
    public boolean isRunning() {
        return server.isRunning();
    }

    /** Kills the process with SIGKILL, as a crash; see {@link RedisServer#kill()}. */
    public void kill() {
        server.kill();
    }

    /**
     * Starts the node again on its port after {@link #kill()} (or stops it first). It rejoins the cluster with its node
     * id but without data; a primary that was failed over meanwhile comes back as a replica. Returns once it answers
     * PING: await {@link RedisCluster#awaitHealthy()} before relying on the cluster.
     */
    public void restart() {
        server.restart();
    }

    @Override
    public String toString() {
        return "ClusterNode[" + address() + ", " + id.substring(0, 8) + ", " + (isRunning() ? "running" : "stopped")
                + "]";
    }
}
