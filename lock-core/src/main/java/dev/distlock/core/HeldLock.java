package dev.distlock.core;

import java.time.Duration;
import java.time.Instant;

/**
 * A hold of this process, as listed by {@link LockRegistry#heldLocks()} for monitoring.
 *
 * @param name the lock's name
 * @param label the label it was obtained with, or {@code null}
 * @param fencingToken the hold's fencing token
 * @param heldSince when it was acquired, to the millisecond
 * @param remainingLease the lease left as the backend sees it (at most until the local deadline); {@link Duration#ZERO} if found lost
 * @param renewed whether the watchdog renews it
 */
public record HeldLock(String name, String label, long fencingToken, Instant heldSince, Duration remainingLease,
        boolean renewed) {
}
