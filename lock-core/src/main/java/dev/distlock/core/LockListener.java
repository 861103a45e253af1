package dev.distlock.core;

/**
 * Told what happens to the holds of a registry: register one with the registry's builder to feed metrics,
 * logs or the code that must stop when its lock is lost. Calls come from the thread that acquired or released
 * (blocking calls); from the registry's step threads ({@code distlock-async-*}, 8 at most) for non-blocking calls
 * and for the answers to renewals; from its timer thread for passed deadlines and renewal timeouts; and from any
 * thread that finds a loss while it reads a hold's lease, verifies it or re-enters it. They must be quick and must
 * not block. An exception thrown by a listener is logged and otherwise ignored.
 */
public interface LockListener {

    /** A lock was acquired (re-entrant acquisitions are not reported); {@code elapsed} is the wait. */
    default void onAcquired(LockEvent event) {
    }

    /**
     * An acquire call gave up without the lock; {@code elapsed} is the wait, {@code error} the backend
     * failure, the {@link InterruptedException} or the {@link IllegalStateException} of a closed registry, or
     * {@code null} for a timeout or a cancelled non-blocking acquisition.
     */
    default void onAcquireFailed(LockEvent event) {
    }

    /** A hold was released by its owner; {@code elapsed} is how long it was held. */
    default void onReleased(LockEvent event) {
    }

    /**
     * A hold was found lost (expired, deleted or taken over) by renewal, extend, release, its passed deadline, a
     * read of its lease or a verification; reported once per hold. {@code elapsed} is the time from acquisition to
     * detection.
     */
    default void onLost(LockEvent event) {
    }

    /**
     * Renewing a lease failed in the backend ({@code error}); the watchdog tries again a tenth of the lease later
     * (at most 1 s), until the hold's deadline.
     */
    default void onRenewalFailed(LockEvent event) {
    }

    /**
     * An acquire call has met only transient backend errors ({@code error}: the last one, e.g. {@code READONLY} on
     * a replica, {@code CLUSTERDOWN}) for a while and keeps trying within its wait; told once per call.
     * {@code elapsed} is the wait so far.
     */
    default void onAcquireRetrying(LockEvent event) {
    }

    /** Releasing a hold failed in the backend ({@code error}); the key expires with its lease. */
    default void onReleaseFailed(LockEvent event) {
    }
}
