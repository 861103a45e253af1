package dev.distlock.core.support;

/**
 * The outcome of {@link LockStore#tryAcquire}.
 *
 * @param acquired whether the caller now holds the lock
 * @param fencingToken the new hold's fencing token, if acquired
 * @param remainingLeaseMillis if not acquired: the current owner's remaining lease, or a negative number if
 *        it never expires
 */
public record AcquireResult(boolean acquired, long fencingToken, long remainingLeaseMillis) {

    /** The lock was taken with this fencing token. */
    public static AcquireResult acquired(long fencingToken) {
        return new AcquireResult(true, fencingToken, 0);
    }

    /** Someone else holds the lock for this long. */
    public static AcquireResult heldByOther(long remainingLeaseMillis) {
        return new AcquireResult(false, 0, remainingLeaseMillis);
    }
}
