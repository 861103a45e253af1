package dev.distlock.core.spi;

/**
 * A hand-off notice: a release gave the lock to a waiter.
 *
 * @param fencingToken the waiter's new fencing token
 * @param serverTimeMillis the backend's clock when the lock was handed over
 * @param leaseMillis the claim lease the hand-off set: the waiter must extend the hold within it
 */
public record Grant(long fencingToken, long serverTimeMillis, long leaseMillis) {
}
