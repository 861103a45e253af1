package dev.distlock.core;

import java.time.Duration;

/**
 * Told what happens to the holds of a registry: register one with the registry's builder to feed metrics,
 * logs or the code that must stop when its lock is lost. Calls come from the thread that acquired or
 * released, or from the watchdog thread for losses found by renewal; they must be quick and must not
 * block. An exception thrown by a listener is logged and otherwise ignored.
 */
public interface LockListener {

    /**
     * A lock was acquired (not counting re-entrant acquisitions).
     *
     * @param waited time from the start of the acquire call until the lock was held
     */
    default void onAcquired(String lockName, long fencingToken, Duration waited) {
    }

    /**
     * An acquire call gave up without the lock.
     *
     * @param waited time spent waiting
     * @param error the backend failure or the {@link InterruptedException}, or {@code null} for a timeout
     */
    default void onAcquireFailed(String lockName, Duration waited, Throwable error) {
    }

    /**
     * A hold was released by its owner.
     *
     * @param held time from acquisition to release
     */
    default void onReleased(String lockName, long fencingToken, Duration held) {
    }

    /**
     * A hold was found lost (expired, deleted or taken over) by renewal, extend or release. Reported once
     * per hold.
     *
     * @param held time from acquisition until the loss was detected
     */
    default void onLost(String lockName, long fencingToken, Duration held) {
    }

    /** Renewing a lease failed in the backend; the watchdog tries again at its next period. */
    default void onRenewalFailed(String lockName, Throwable error) {
    }

    /** Releasing a hold failed in the backend; the key expires with its lease. */
    default void onReleaseFailed(String lockName, Throwable error) {
    }
}
