package dev.distlock.autoconfigure;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;

/**
 * Configuration of distlock, bound from {@code distlock.*}: a plain holder. Each value's rule belongs to the object
 * that uses it (the registry builders, {@link dev.distlock.aop.LockDefaults}); a value it refuses fails the startup
 * with a message naming the property ({@link DistlockSettings}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties(prefix = DistlockProperties.PREFIX)
public class DistlockProperties {

    static final String PREFIX = "distlock";


    /** Whether distlock's auto-configuration is active. */
    private boolean enabled = true;

    /**
     * Where locks live: "redis" (the application's RedisConnectionFactory), "redlock" (the independent Redis
     * servers of distlock.redlock.nodes) or "memory" (this JVM only, for tests). Default: "redlock" when
     * distlock.redlock.nodes is set, else "redis".
     */
    private Store store;

    /** Prefix of every Redis key distlock writes; a colon separates it from the rest. Must not contain { or }. */
    private String keyPrefix = "distlock";

    /** How long a @DistributedLock call waits for its lock unless the annotation says otherwise; 0 means one try. */
    private Duration waitTimeout = Duration.ofSeconds(10);

    /**
     * Lease of a lock: how long it outlives a crashed holder, and how long a holder that cannot reach Redis
     * goes on believing it holds. 300ms to 365 days when renewed, 100ms to 365 days when not
     * (a shorter lease would leave an acquisition's reply too little time to count). Keep
     * spring.data.redis.timeout well below it.
     */
    private Duration lease = Duration.ofSeconds(30);

    /**
     * Whether the watchdog renews the lease every third of it while a lock is held. If false, @DistributedLock
     * methods without a lease of their own get distlock.lease as a fixed lease that is never renewed (locks
     * obtained from the registry directly stay renewed).
     */
    private boolean renewLease = true;

    /**
     * How long a freed name keeps its last fencing token after its release. Each token is the larger
     * of the kept one plus one and the Redis server clock in microseconds. From distlock.lease to 365 days.
     */
    private Duration fenceRetention = Duration.ofHours(1);

    /**
     * Longest a queued waiter sleeps before asking Redis again when no hand-off notice arrives (1ms to 1
     * hour). A waiter's place in the queue, and the claim of a hand-off to it, last this plus as much again
     * (at least 500ms): about how long a waiter that died blocks the lock, twice over.
     */
    private Duration maxPollInterval = Duration.ofMillis(500);

    /**
     * Order of the @DistributedLock advisor among other advisors; the default runs it outside
     * @Transactional and @Cacheable (whose advisors have the lowest precedence).
     */
    private int advisorOrder = Ordered.LOWEST_PRECEDENCE - 1000;

    /**
     * How calls of @DistributedLock methods reach the lock: "proxy" (Spring's proxies, the default; calls from a
     * bean to itself and calls of private, static or final methods bypass them) or "aspectj" (the methods are woven
     * by AspectJ at compile or load time, with dev.distlock:lock-aspectj, which locks those calls too; the advisor
     * then backs off). Advisor order does not apply to the aspect, which runs inside every proxy.
     */
    private AdviceMode adviceMode = AdviceMode.PROXY;

    /** Micrometer metrics of distributed locks. */
    private final Metrics metrics = new Metrics();

    /** Replica acknowledgement of lock writes (Redis WAIT), for Redis with replicas. */
    private final Replication replication = new Replication();

    /** Redlock: locks held on a majority of independent Redis servers. */
    private final Redlock redlock = new Redlock();

    /** Transactions that begin inside a @DistributedLock call. */
    private final Transaction transaction = new Transaction();

    /** The distlocks Actuator endpoint's write operations. */
    private final Actuator actuator = new Actuator();

    /** Binds the properties straight from the environment, for beans created before the properties bean (advisors). */
    static DistlockProperties bind(Environment environment) {
        return Binder.get(environment).bindOrCreate(PREFIX, DistlockProperties.class);
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    /** The store set, or the default: {@link Store#REDLOCK} when Redlock nodes are listed, else {@link Store#REDIS}. */
    public Store getStore() {
        if (store != null) {
            return store;
        }
        return redlock.nodes == null || redlock.nodes.isEmpty() ? Store.REDIS : Store.REDLOCK;
    }

    public void setStore(Store store) {
        this.store = store;
    }

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public Duration getWaitTimeout() {
        return waitTimeout;
    }

    public void setWaitTimeout(Duration waitTimeout) {
        this.waitTimeout = waitTimeout;
    }

    public Duration getLease() {
        return lease;
    }

    public void setLease(Duration lease) {
        this.lease = lease;
    }

    public boolean isRenewLease() {
        return renewLease;
    }

    public void setRenewLease(boolean renewLease) {
        this.renewLease = renewLease;
    }

    public Duration getFenceRetention() {
        return fenceRetention;
    }

    public void setFenceRetention(Duration fenceRetention) {
        this.fenceRetention = fenceRetention;
    }

    public Duration getMaxPollInterval() {
        return maxPollInterval;
    }

    public void setMaxPollInterval(Duration maxPollInterval) {
        this.maxPollInterval = maxPollInterval;
    }

    public int getAdvisorOrder() {
        return advisorOrder;
    }

    public void setAdvisorOrder(int advisorOrder) {
        this.advisorOrder = advisorOrder;
    }

    public AdviceMode getAdviceMode() {
        return adviceMode;
    }

    public void setAdviceMode(AdviceMode adviceMode) {
        this.adviceMode = adviceMode;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    public Replication getReplication() {
        return replication;
    }

    public Redlock getRedlock() {
        return redlock;
    }

    public Transaction getTransaction() {
        return transaction;
    }

    public Actuator getActuator() {
        return actuator;
    }

    /** Where locks live. */
    public enum Store {

        /** Redis, through the application's RedisConnectionFactory. */
        REDIS,

        /** Redlock over the independent Redis servers of {@code distlock.redlock.nodes}. */
        REDLOCK,

        /** This JVM only: for tests. */
        MEMORY
    }

    /** Transactions that begin inside a @DistributedLock call. */
    public static class Transaction {

        /**
         * Whether such a transaction asks Redis, right before it commits, whether the call's lock is still held, and
         * rolls back (failing with LockLostBeforeCommitException) if it is not. One Redis round trip per commit;
         * thread-bound (JDBC, JPA) and reactive (R2DBC, transactional operators) transactions alike.
         */
        private boolean rollbackOnLoss = true;

        public boolean isRollbackOnLoss() {
            return rollbackOnLoss;
        }

        public void setRollbackOnLoss(boolean rollbackOnLoss) {
            this.rollbackOnLoss = rollbackOnLoss;
        }
    }

    /** Replica acknowledgement of lock writes. */
    public static class Replication {

        static final String AUTO = "auto";

        /**
         * Which replicas must acknowledge (Redis WAIT) an acquisition, hand-off or renewal before it counts: auto (the
         * default) for the replicas the primary has online at the time (none on a server without replicas, so no
         * cost there), a number for that many (locking fails while fewer are up), 0 for none. With acknowledgement a
         * failover cannot forget a granted lock, nor a cut-off primary keep renewing one; a shortfall is retried
         * within the wait. A number needs a standalone primary with replicas or Sentinel (not Redis Cluster, where
         * auto waits for none).
         */
        private String acks = AUTO;

        /** How long each WAIT waits for the replicas' acknowledgement (1ms to 10s), unless distlock.replication.acks is 0. */
        private Duration ackTimeout = Duration.ofMillis(50);

        public String getAcks() {
            return acks;
        }

        public void setAcks(String acks) {
            this.acks = acks;
        }

        /**
         * The number of replicas {@link #getAcks()} names, or {@code -1} for {@code auto}.
         *
         * @throws IllegalArgumentException if it is neither {@code auto} nor a whole number, 0 or more
         */
        public int replicasToAcknowledge() {
            String value = acks == null ? "" : acks.strip();
            if (AUTO.equalsIgnoreCase(value)) {
                return -1;
            }
            try {
                int replicas = Integer.parseInt(value);
                if (replicas >= 0) {
                    return replicas;
                }
            } catch (NumberFormatException notANumber) {
                // refused below
            }
            throw new IllegalArgumentException("must be auto (the replicas online at the time), 0 (off) or a number "
                    + "of replicas");
        }

        public Duration getAckTimeout() {
            return ackTimeout;
        }

        public void setAckTimeout(Duration ackTimeout) {
            this.ackTimeout = ackTimeout;
        }
    }

    /** Redlock over independent Redis servers. */
    public static class Redlock {

        /**
         * The independent Redis servers (not replicas of each other, not one cluster) as redis:// or rediss://
         * URIs with user, password and database as needed, e.g. redis://:secret@redis-a:6379/0: an odd number,
         * at least 3. A lock is held while a majority of them holds it. Setting them makes "redlock" the
         * default distlock.store.
         */
        private List<String> nodes = new ArrayList<>();

        /**
         * How long one call to one server may take before that server counts as not answering (1ms to 10s).
         * Keep it small against the lease: an acquisition's validity is the lease minus the time it took.
         */
        private Duration nodeTimeout = Duration.ofMillis(100);

        public List<String> getNodes() {
            return nodes;
        }

        public void setNodes(List<String> nodes) {
            this.nodes = nodes;
        }

        public Duration getNodeTimeout() {
            return nodeTimeout;
        }

        public void setNodeTimeout(Duration nodeTimeout) {
            this.nodeTimeout = nodeTimeout;
        }
    }

    /** Micrometer metrics. */
    public static class Metrics {

        /** Whether distlock records Micrometer meters (when a MeterRegistry bean exists). */
        private boolean enabled = true;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }

    /** What the distlocks Actuator endpoint may do beyond reading. */
    public static class Actuator {

        private final ForceRelease forceRelease = new ForceRelease();

        public ForceRelease getForceRelease() {
            return forceRelease;
        }
    }

    /** An operator's forced release of a hung holder's lock: DELETE /actuator/distlocks/{name}?fencingToken=... */
    public static class ForceRelease {

        /**
         * Whether the distlocks endpoint offers DELETE /actuator/distlocks/{name}?fencingToken=..., which ends the
         * hold with that fencing token whoever holds it (its owner finds it lost at its next renewal). Off by
         * default: the operation does not exist then. Secure the endpoint before turning it on.
         */
        private boolean enabled = false;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }
    }
}
