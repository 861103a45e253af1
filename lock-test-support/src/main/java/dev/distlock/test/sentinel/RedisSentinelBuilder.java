package dev.distlock.test.sentinel;

import dev.distlock.test.RedisBinary;
import java.time.Duration;
import java.util.Objects;

/**
 * Options of a {@link RedisSentinelSet}: the binary, the master name ({@code mymaster}), and the Sentinel timings:
 * {@code down-after-milliseconds} (2 s: a killed primary is failed over in about 3 to 5 s) and
 * {@code failover-timeout} (4 s: a failed failover is retried after twice that).
 */
public final class RedisSentinelBuilder {

    private RedisBinary binary;
    private String masterName = "mymaster";
    private Duration downAfter = Duration.ofSeconds(2);
    private Duration failoverTimeout = Duration.ofSeconds(4);

    RedisSentinelBuilder() {
    }

    /**
     * The server binary of the data nodes and the sentinels (default: {@link RedisBinary#installed()}).
     *
     * @param binary e.g. {@code RedisBinary.named(RedisBinary.REDIS_6_0)}
     * @return this builder
     */
    public RedisSentinelBuilder binary(RedisBinary binary) {
        this.binary = Objects.requireNonNull(binary, "binary");
        return this;
    }

    /**
     * The name the sentinels monitor the primary under (default {@code mymaster}).
     *
     * @param masterName the name clients ask the sentinels for
     * @return this builder
     */
    public RedisSentinelBuilder masterName(String masterName) {
        if (masterName == null || masterName.isBlank() || masterName.contains(" ")) {
            throw new IllegalArgumentException("not a master name: '" + masterName + "'");
        }
        this.masterName = masterName;
        return this;
    }

    /**
     * {@code sentinel down-after-milliseconds}: how long the primary may not answer before a sentinel considers it
     * down (default 2 s). Lower values fail over faster but may fail over spuriously on a loaded machine.
     *
     * @param downAfter the time
     * @return this builder
     */
    public RedisSentinelBuilder downAfter(Duration downAfter) {
        this.downAfter = Objects.requireNonNull(downAfter, "downAfter");
        return this;
    }

    /**
     * {@code sentinel failover-timeout} (default 4 s).
     *
     * @param failoverTimeout the time
     * @return this builder
     */
    public RedisSentinelBuilder failoverTimeout(Duration failoverTimeout) {
        this.failoverTimeout = Objects.requireNonNull(failoverTimeout, "failoverTimeout");
        return this;
    }

    /**
     * Starts the primary, its replica and three sentinels, and waits until the replica is in sync and the sentinels
     * agree (see {@link RedisSentinelSet#awaitHealthy()}).
     *
     * @return the running set; close it when done
     * @throws IllegalStateException if a process does not start or the set does not become healthy in time
     */
    public RedisSentinelSet start() {
        return RedisSentinelSet.start(binary != null ? binary : RedisBinary.installed(), masterName, downAfter,
                failoverTimeout);
    }
}
