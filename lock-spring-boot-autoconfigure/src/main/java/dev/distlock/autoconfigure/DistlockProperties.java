package dev.distlock.autoconfigure;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.Ordered;

/**
 * Configuration of distlock, bound from {@code distlock.*}.
 */
@ConfigurationProperties(prefix = "distlock")
public class DistlockProperties {

    /** Whether distlock's auto-configuration is active. */
    private boolean enabled = true;

    /**
     * Where locks live: "redis" (the application's RedisConnectionFactory) or "memory" (this JVM only, for
     * tests; never chosen unless set here).
     */
    private Store store = Store.REDIS;

    /** Prefix of every Redis key distlock writes; a colon separates it from the rest. Must not contain { or }. */
    private String keyPrefix = "distlock";

    /** How long a @DistributedLock call waits for its lock unless the annotation says otherwise; 0 means one try. */
    private Duration waitTimeout = Duration.ofSeconds(10);

    /** Lease of a lock: how long it outlives a crashed holder. */
    private Duration lease = Duration.ofSeconds(30);

    /**
     * Whether the watchdog renews the lease every third of it while a lock is held. If false, locks without
     * an explicit lease simply expire after distlock.lease.
     */
    private boolean renewLease = true;

    /** How long the last fencing token of a lock name is kept after its last acquisition. */
    private Duration fenceRetention = Duration.ofHours(1);

    /** Longest a waiter sleeps before asking Redis again when no release notice arrives. */
    private Duration maxPollInterval = Duration.ofMillis(500);

    /** How long this instance keeps listening to a lock's release channel after its last waiter left. */
    private Duration subscriptionLinger = Duration.ofSeconds(10);

    /**
     * Order of the @DistributedLock advisor among other advisors; the default runs it outside
     * @Transactional and @Cacheable (whose advisors have the lowest precedence).
     */
    private int advisorOrder = Ordered.LOWEST_PRECEDENCE - 1000;

    private final Metrics metrics = new Metrics();

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public Store getStore() {
        return store;
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

    public Duration getSubscriptionLinger() {
        return subscriptionLinger;
    }

    public void setSubscriptionLinger(Duration subscriptionLinger) {
        this.subscriptionLinger = subscriptionLinger;
    }

    public int getAdvisorOrder() {
        return advisorOrder;
    }

    public void setAdvisorOrder(int advisorOrder) {
        this.advisorOrder = advisorOrder;
    }

    public Metrics getMetrics() {
        return metrics;
    }

    /** Where locks live. */
    public enum Store {

        /** Redis, through the application's RedisConnectionFactory. */
        REDIS,

        /** This JVM only: for tests. */
        MEMORY
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
}
