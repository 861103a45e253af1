package dev.distlock.actuate;

/**
 * Checks whether locking can work on a registry's backend, free of Spring Boot's health types: each Boot
 * generation's {@code distlock} health indicator reports what it finds.
 *
 * @since 0.1.0
 * @see DistlockHealthCheck one Redis (standalone, Sentinel or cluster)
 * @see RedlockHealthCheck the independent servers of Redlock
 */
@FunctionalInterface
public interface HealthCheck {

    /** Checks now; never throws: a failure is a DOWN with the reason under {@code error}. */
    DistlockHealth check();
}
