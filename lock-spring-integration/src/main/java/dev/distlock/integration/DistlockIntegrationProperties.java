package dev.distlock.integration;

import java.time.Duration;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The settings of Spring Integration's lock registry on distlock ({@code distlock.integration.*}).
 *
 * @since 0.1.0
 */
@ConfigurationProperties("distlock.integration")
public class DistlockIntegrationProperties {

    /**
     * How Spring Integration's locks keep their lease: "renewed" (distlock's watchdog renews it every third of it while
     * a lock is held) or "expiring" (as Spring Integration's RedisLockRegistry: a lock expires expire-after after it
     * was acquired unless renewLock, a re-acquisition by its thread or a renewal task scheduler renews it, so a hung
     * holder loses it).
     */
    private LeaseMode leaseMode = LeaseMode.RENEWED;

    /**
     * Time to live of a Spring Integration lock acquired without one of its own (Spring Integration's expireAfter).
     * Below 100ms it is 100ms, below 300ms 300ms when renewed. Default: distlock.lease.
     */
    private Duration expireAfter;

    public LeaseMode getLeaseMode() {
        return leaseMode;
    }

    public void setLeaseMode(LeaseMode leaseMode) {
        this.leaseMode = leaseMode;
    }

    public Duration getExpireAfter() {
        return expireAfter;
    }

    public void setExpireAfter(Duration expireAfter) {
        this.expireAfter = expireAfter;
    }
}
