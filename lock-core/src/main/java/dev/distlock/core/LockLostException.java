package dev.distlock.core;

/**
 * A hold ended without its owner releasing it: the lease expired, or the key was deleted or taken over by
 * another owner. The work done since the loss was not protected by the lock.
 */
public class LockLostException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    public LockLostException(String lockName) {
        super(lockName, "Lock '" + lockName + "' was lost before it was released: its lease expired or another "
                + "owner took it (the key was deleted or overwritten); the other owner's key was left intact");
    }
}
