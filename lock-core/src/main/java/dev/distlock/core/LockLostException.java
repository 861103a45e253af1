package dev.distlock.core;

/**
 * A hold ended without its owner releasing it: the lease expired, or the key was deleted or taken over by
 * another owner. The work done since the loss was not protected by the lock. The message says why the hold
 * was found lost.
 */
public class LockLostException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    /** A hold of lock {@code lockName} was lost, found without more detail. */
    public LockLostException(String lockName) {
        this(lockName, "the backend no longer holds it under this owner's token (it was deleted or overwritten)");
    }

    /**
     * @param reason how the loss was found, e.g. that the lease ran out before a renewal was confirmed
     */
    public LockLostException(String lockName, String reason) {
        this(lockName, reason, null);
    }

    /**
     * @param reason how the loss was found
     * @param cause what found it, if it is an exception of its own
     */
    public LockLostException(String lockName, String reason, Throwable cause) {
        super(lockName, "Lock '" + lockName + "' was lost before it was released: its lease expired or another "
                + "owner took it; " + reason + ". The other owner's key was left intact", cause);
        this.reason = reason;
    }

    /** How the loss was found, e.g. that the lease ran out before a renewal was confirmed. */
    public String reason() {
        return reason;
    }
}
