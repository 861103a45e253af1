package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.memory.GrantNotices.Notice;
import dev.distlock.memory.WaiterQueues.Waiter;
import java.time.Clock;
import java.util.List;

/**
 * The in-memory store's locks and their rules, as the Redis scripts keep them: holds, the traces of releases,
 * the queues, and the hand-offs between them. Not thread-safe: every call is made under the
 * {@link InMemoryLockStore}'s monitor, and the hand-offs a call decides are added to {@code pending}, for the store
 * to tell once it let the monitor go.
 */
final class LockTable {

    private static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final Holds holds;
    private final ReleaseTraces released;
    private final WaiterQueues queues = new WaiterQueues();
    private int acquisitionsSinceSweep;

    /** @param fences the fencing-token counts, shared with the store's semaphores: a name's tokens grow across kinds */
    LockTable(Clock clock, long fenceRetentionMillis, FencingTokens fences) {
        this.clock = clock;
        this.holds = new Holds(fences);
        this.released = new ReleaseTraces(fenceRetentionMillis);
    }

    /** See {@link InMemoryLockStore#tryAcquire}. */
    AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue, long waiterTimeoutMillis,
            List<Notice> pending) {
        long now = clock.millis();
        Held current = holds.live(name, now);
        if (current == null) {
            // a freed lock goes on with its life; one whose hold ran out or was deleted starts a new one
            Held freed = released.take(name, now);
            Long origin = freed != null ? freed.origin() : null;
            Waiter head = queues.firstLiveWaiter(name, now);
            if (head != null && !head.token().equals(token)) {
                // a lease ran out with waiters queued: the lock goes to the first of them, not to a newcomer
                Held granted = handOver(name, head, now, origin, pending);
                if (queue) {
                    queues.enqueue(name, token, leaseMillis, waiterTimeoutMillis, now);
                }
                return AcquireResult.busy(granted.expiresAt() - now, now);
            }
            queues.leave(name, token);
            sweepNowAndThen(now);
            return AcquireResult.acquired(holds.grant(name, token, leaseMillis, now, origin).fencingToken(), now);
        } else if (current.token().equals(token)) {
            // handed to this token, or a repeated try: the hold is the caller's, with its full lease
            queues.leave(name, token);
            holds.put(name, current.withExpiry(now + leaseMillis));
            return AcquireResult.acquired(current.fencingToken(), now);
        } else {
            if (queue) {
                queues.enqueue(name, token, leaseMillis, waiterTimeoutMillis, now);
            }
            return AcquireResult.busy(current.leaseLeft(now), now);
        }
    }

    /** See {@link InMemoryLockStore#leaveQueue}. */
    AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        long now = clock.millis();
        queues.leave(name, token);
        Held current = holds.heldBy(name, token, now);
        if (current != null) {
            holds.put(name, current.withExpiry(now + leaseMillis));
            return AcquireResult.acquired(current.fencingToken(), now);
        }
        return AcquireResult.busy(-1, now);
    }

    /** Takes {@code token} out of the queue and releases its hold, if any. */
    boolean abandon(String name, String token, List<Notice> pending) {
        queues.leave(name, token);
        return releaseHeld(name, token, null, pending);
    }

    boolean setLease(String name, String token, long leaseMillis, boolean onlyLonger) {
        return holds.setLease(name, token, leaseMillis, onlyLonger, clock.millis());
    }

    /** See {@link InMemoryLockStore#raiseFence}. */
    boolean raiseFence(String name, String token, long fencingToken) {
        return holds.raiseFence(name, token, fencingToken, clock.millis());
    }

    /** See {@link InMemoryLockStore#forceRelease}. */
    boolean forceRelease(String name, long fencingToken, List<Notice> pending) {
        long now = clock.millis();
        Held current = holds.live(name, now);
        if (current == null || fencingToken <= 0 || current.fencingToken() != fencingToken) {
            return false;
        }
        holds.remove(name);
        released.forget(name);
        Waiter head = queues.firstLiveWaiter(name, now);
        if (head != null) {
            handOver(name, head, now, null, pending);
        }
        return true;
    }

    long remainingLeaseMillis(String name, String token) {
        long now = clock.millis();
        Held current = holds.heldBy(name, token, now);
        return current == null ? -1 : current.leaseLeft(now);
    }

    boolean isLocked(String name) {
        return holds.live(name, clock.millis()) != null;
    }

    LockSnapshot inspect(String name) {
        long now = clock.millis();
        Held current = holds.live(name, now);
        int waiting = waitersQueued(name);
        List<String> waiters = waiting == 0 ? List.of()
                : queues.liveTokens(name, now, LockSnapshot.MAX_WAITER_TOKENS);
        if (current == null) {
            return new LockSnapshot(null, 0, 0, waiting, waiters);
        }
        return new LockSnapshot(current.token(), current.fencingToken(), current.leaseLeft(now), waiting, waiters);
    }

    /** See {@link InMemoryLockStore#delete}. */
    void delete(String name) {
        holds.remove(name);
        released.forget(name);
    }

    /** See {@link InMemoryLockStore#overwrite}. */
    void overwrite(String name, String token) {
        holds.put(name, new Held(token, Long.MAX_VALUE, 0, 0));
    }

    /** See {@link InMemoryLockStore#waitersQueued}. */
    int waitersQueued(String name) {
        // the clock is read only if there is a queue, as before the queues had a class of their own
        return queues.hasQueue(name) ? queues.liveWaiters(name, clock.millis()) : 0;
    }

    /** See {@link InMemoryLockStore#heldNames}. */
    List<String> heldNames() {
        return holds.liveNames(clock.millis());
    }

    /**
     * Releases the hold of {@code token}, handing it to the first live waiter or freeing it. A release run again after
     * it took effect reports success again, whoever holds the lock since, as long as the name's life goes on: its
     * hold's {@code fence} (unknown to a clean-up: {@code null}) was issued in it, and every hold of a life ends by
     * its owner's release (one that ran out, or was deleted, ended the life).
     */
    boolean releaseHeld(String name, String token, Long fence, List<Notice> pending) {
        long now = clock.millis();
        Held current = holds.live(name, now);
        if (current == null || !current.token().equals(token)) {
            return fence != null && (current != null ? current.sameLifeUpTo(fence)
                    : released.releasedInLife(name, fence, now));
        }
        holds.remove(name);
        Waiter head = queues.firstLiveWaiter(name, now);
        if (head != null) {
            handOver(name, head, now, current.origin(), pending);
        } else {
            released.remember(name, current, now);
        }
        return true;
    }

    /**
     * Gives the lock to {@code waiter} with the next fencing token and its claim lease, in the life that began with
     * {@code origin} (a new one if {@code null}), and tells it.
     */
    private Held handOver(String name, Waiter waiter, long now, Long origin, List<Notice> pending) {
        long claim = Math.min(waiter.leaseMillis(), waiter.timeoutMillis());
        Held granted = holds.grant(name, waiter.token(), claim, now, origin);
        pending.add(new Notice(waiter.token(), new Grant(granted.fencingToken(), now, claim)));
        return granted;
    }

    /** Drops expired entries now and then, so names used once do not stay in memory. */
    private void sweepNowAndThen(long now) {
        if (++acquisitionsSinceSweep < SWEEP_EVERY) {
            return;
        }
        acquisitionsSinceSweep = 0;
        holds.sweep(now);
        released.sweep(now);
        queues.sweep(now);
    }
}
