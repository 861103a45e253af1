package dev.distlock.core.spi;

/**
 * The outcome of a try ({@link LockStore#tryAcquire}, {@link WaitQueue#leaveQueue}).
 *
 * @param acquired whether the caller now holds the lock, with the lease it asked for
 * @param fencingToken the hold's fencing token, if acquired
 * @param holderLeaseMillis if not acquired: the current owner's remaining lease ({@link LockStore#NEVER_EXPIRES} if it
 *        never expires), or a negative number if nobody holds the lock
 * @param serverTimeMillis the backend's clock when the try ran, in milliseconds; hand-off notices carry the
 *        same clock, so a waiter can tell how long ago a hand-off happened
 */
public record AcquireResult(boolean acquired, long fencingToken, long holderLeaseMillis, long serverTimeMillis) {

    /** The lock was taken with this fencing token. */
    public static AcquireResult acquired(long fencingToken, long serverTimeMillis) {
        return new AcquireResult(true, fencingToken, 0, serverTimeMillis);
    }

    /** Someone else holds the lock for this long ({@link LockStore#NEVER_EXPIRES}: without expiry; negative: nobody). */
    public static AcquireResult busy(long holderLeaseMillis, long serverTimeMillis) {
        return new AcquireResult(false, 0, holderLeaseMillis, serverTimeMillis);
    }
}
