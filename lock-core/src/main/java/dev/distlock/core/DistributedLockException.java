package dev.distlock.core;

/**
 * The root of distlock's exceptions. Each names the lock it is about.
 */
public class DistributedLockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String lockName;

    /** A failure about lock {@code lockName}, with its message and cause. */
    public DistributedLockException(String lockName, String message, Throwable cause) {
        super(message, cause);
        this.lockName = lockName;
    }

    /** A failure about lock {@code lockName}, with its message. */
    public DistributedLockException(String lockName, String message) {
        this(lockName, message, null);
    }

    /** The name of the lock this failure is about. */
    public String getLockName() {
        return lockName;
    }
}
