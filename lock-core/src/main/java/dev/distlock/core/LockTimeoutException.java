package dev.distlock.core;

import java.time.Duration;

/** The lock could not be acquired within the time the caller was willing to wait. */
public class LockTimeoutException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    private final Duration waited;

    /** Lock {@code lockName} was not acquired within {@code waited}. */
    public LockTimeoutException(String lockName, Duration waited) {
        this(lockName, waited, "Lock '" + lockName + "' could not be acquired within " + waited + ": it stayed held "
                + "by other owners");
    }

    /** For callers that know more to say, e.g. which method wanted the lock. */
    protected LockTimeoutException(String lockName, Duration waited, String message) {
        super(lockName, message);
        this.waited = waited;
    }

    /** How long the caller waited. */
    public Duration getWaited() {
        return waited;
    }
}
