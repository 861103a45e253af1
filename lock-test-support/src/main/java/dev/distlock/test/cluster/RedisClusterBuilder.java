package dev.distlock.test.cluster;

import dev.distlock.test.RedisBinary;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link RedisCluster}: the binary, the shape (3 primaries with 1 replica each by default) and the
 * {@code cluster-node-timeout} (2 s by default: a killed primary is failed over in about 2 to 4 s).
 */
public final class RedisClusterBuilder {

    private RedisBinary binary;
    private int primaries = 3;
    private int replicasPerPrimary = 1;
    private Duration nodeTimeout = Duration.ofSeconds(2);

    RedisClusterBuilder() {
    }

    /**
     * The server binary of every node (default: {@link RedisBinary#installed()}).
     *
     * @param binary e.g. {@code RedisBinary.named(RedisBinary.VALKEY_8_0)}
     * @return this builder
     */
    public RedisClusterBuilder binary(RedisBinary binary) {
        this.binary = Objects.requireNonNull(binary, "binary");
        return this;
    }

    /**
     * How many primaries share the slots (default 3, at least 3 as {@code redis-cli --cluster create} demands).
     *
     * @param primaries the number of primaries
     * @return this builder
     */
    public RedisClusterBuilder primaries(int primaries) {
        if (primaries < 3) {
            throw new IllegalArgumentException("redis-cli --cluster create needs at least 3 primaries, got " + primaries);
        }
        this.primaries = primaries;
        return this;
    }

    /**
     * How many replicas each primary has (default 1).
     *
     * @param replicas replicas per primary, 0 or more
     * @return this builder
     */
    public RedisClusterBuilder replicasPerPrimary(int replicas) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicas per primary cannot be negative: " + replicas);
        }
        this.replicasPerPrimary = replicas;
        return this;
    }

    /**
     * {@code cluster-node-timeout}: how long a node may be unreachable before it is suspected failed (default 2 s).
     * Lower values fail over faster but may fail over spuriously on a loaded machine.
     *
     * @param nodeTimeout the timeout
     * @return this builder
     */
    public RedisClusterBuilder nodeTimeout(Duration nodeTimeout) {
        this.nodeTimeout = Objects.requireNonNull(nodeTimeout, "nodeTimeout");
        return this;
    }

    /**
     * Starts the nodes, creates the cluster and waits until it is healthy (see {@link RedisCluster#awaitHealthy()}).
     *
     * @return the running cluster; close it when done
     * @throws IllegalStateException if a node does not start or the cluster does not become healthy in time
     */
    public RedisCluster start() {
        return RedisCluster.start(binary != null ? binary : RedisBinary.installed(), primaries, replicasPerPrimary,
                nodeTimeout);
    }
}
