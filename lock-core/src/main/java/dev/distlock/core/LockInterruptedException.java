package dev.distlock.core;

/**
 * The thread was interrupted while waiting for a lock in a call that cannot throw
 * {@link InterruptedException}. The lock is not held and the interrupt flag is set again.
 */
public class LockInterruptedException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    /** The thread was interrupted while it waited for lock {@code lockName}. */
    public LockInterruptedException(String lockName, InterruptedException cause) {
        super(lockName, "Interrupted while waiting for lock '" + lockName + "'", cause);
    }
}
