package dev.distlock.core;

/** A lock name that cannot be used: empty, longer than the maximum or not valid UTF-16. */
public class InvalidLockNameException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    /** {@code lockName} cannot name a lock; {@code problem} says why (e.g. that it is empty or too long). */
    public InvalidLockNameException(String lockName, String problem) {
        super(lockName, "Invalid lock name '" + abbreviate(lockName) + "': " + problem);
    }

    private static String abbreviate(String name) {
        return name == null || name.length() <= 80 ? String.valueOf(name) : name.substring(0, 80) + "...";
    }
}
