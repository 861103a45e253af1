package dev.distlock.core;

/** The lock backend (Redis) failed or could not be reached; the cause is the client's error. */
public class LockBackendException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    public LockBackendException(String lockName, String operation, Throwable cause) {
        super(lockName, "Lock '" + lockName + "': could not " + operation + " because the lock backend failed: "
                + cause.getMessage(), cause);
    }
}
