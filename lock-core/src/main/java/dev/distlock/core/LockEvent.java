package dev.distlock.core;

import java.time.Duration;

/**
 * What a {@link LockListener} is told.
 *
 * @param lockName the lock's name (for Redis, what the key is made of)
 * @param label the label the lock was obtained with (e.g. the annotated method), or {@code null}; unlike
 *        the name it comes from a small fixed set, so it suits metric tags
 * @param fencingToken the hold's fencing token, or 0 when there is no hold (acquire failures)
 * @param elapsed time waited (acquired, acquire failed; acquire retrying: the wait so far) or held (released, lost,
 *        renewal failed, release failed)
 * @param error the failure, if the event is one; {@code null} for a plain timeout
 * @param waitEnd for an acquired event, how the wait ended; {@code null} for every other event
 * @param kind what the hold is (or the call asked for) of the name: its lock, permits, a read or a write
 */
public record LockEvent(String lockName, String label, long fencingToken, Duration elapsed, Throwable error,
        WaitEnd waitEnd, HoldKind kind) {

    /** An event of the name's lock. */
    public LockEvent(String lockName, String label, long fencingToken, Duration elapsed, Throwable error,
            WaitEnd waitEnd) {
        this(lockName, label, fencingToken, elapsed, error, waitEnd, HoldKind.LOCK);
    }

    /** An event of the name's lock without a wait end: every event but the acquired one. */
    public LockEvent(String lockName, String label, long fencingToken, Duration elapsed, Throwable error) {
        this(lockName, label, fencingToken, elapsed, error, null, HoldKind.LOCK);
    }
}
