package dev.distlock.integration;

/**
 * How the locks of a {@link DistlockIntegrationLockRegistry} keep their lease in the backend.
 *
 * @since 0.1.0
 */
public enum LeaseMode {

    /**
     * distlock's watchdog renews every lock every third of its lease while it is held, so work may take as long as it
     * needs, and a crashed holder blocks the others for at most one lease. A lease shorter than
     * {@link dev.distlock.core.Lease#MIN_RENEWED} is renewed as that long.
     */
    RENEWED,

    /**
     * Spring Integration's {@code RedisLockRegistry} semantics: a lock expires its time to live ({@code expireAfter},
     * or the one given to {@code lock(ttl)}) after it was acquired, unless its holder renews it
     * ({@code renewLock}, or a new acquisition by the same thread, which sets the time to live again), so a hung holder
     * loses it. Once a renewal task scheduler is set ({@code setRenewalTaskScheduler}), locks acquired from then on
     * are renewed while held as in {@link #RENEWED}.
     */
    EXPIRING
}
