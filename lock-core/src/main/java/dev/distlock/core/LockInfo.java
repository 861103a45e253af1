package dev.distlock.core;

import java.time.Duration;
import java.time.Instant;

/**
 * What the backend knows of a lock right now, whoever holds it, read by {@link LockRegistry#inspect}: for an
 * operator looking at a name that seems stuck. It may change the moment it is read; never decide anything on
 * it (acquire the lock instead).
 *
 * @param name the lock's name
 * @param held whether anybody holds it
 * @param holder the registry (process) that holds it, as it announced itself; {@code null} if nobody holds
 *        it, or if the holder is not known (its process went away long enough ago, or it is not a
 *        distlock registry)
 * @param fencingToken the current hold's fencing token; 0 if nobody holds it or it is not known
 * @param heldSince about when the current hold began: its fencing token is the backend's clock in
 *        microseconds when the token was issued (exact unless tokens ran ahead of the clock); {@code null} if
 *        nobody holds it or it is not known
 * @param remainingLease the lease the current hold has left; {@link Duration#ZERO} if nobody holds it,
 *        {@code null} if it never expires
 * @param waiting how many acquisitions (one per process and name) wait for it in the backend's queue
 */
public record LockInfo(String name, boolean held, LockHolder holder, long fencingToken, Instant heldSince,
        Duration remainingLease, int waiting) {
}
