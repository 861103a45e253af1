package dev.distlock.test.kit;

/** The store calls {@link TestLocks#failNext} can make fail. */
public enum StoreOp {
    /** An acquisition: every {@code tryLock}, {@code lock} and their retries and polls. */
    TRY_ACQUIRE,
    /** A release ({@code unlock}). */
    RELEASE,
    /** A renewal of a renewed lease, by the background. */
    RENEW,
    /** An extension ({@code extend}). */
    EXTEND
}
