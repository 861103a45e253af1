package dev.distlock.core.spi;

/**
 * What a store knows of one lock at one moment ({@link LockStore#inspect}).
 *
 * @param ownerToken the token of the current hold, or {@code null} if nobody holds the lock
 * @param fencingToken the current hold's fencing token, or 0 if free or not known
 * @param remainingLeaseMillis the lease left; 0 if free, {@link LockStore#NEVER_EXPIRES} if it never expires
 * @param waiting how many live entries the lock's queue has
 */
public record LockSnapshot(String ownerToken, long fencingToken, long remainingLeaseMillis, int waiting) {
}
