package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.memory.GrantNotices.Notice;
import dev.distlock.memory.NamePermits.Owner;
import dev.distlock.memory.NamePermits.Waiter;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The in-memory store's semaphores with leased permits, by the rules the Redis scripts keep for them: the store's
 * operations on them by name (take, leave the queue, release, keep, abandon, lease changes, reads), each name's
 * permits a {@link NamePermits} (its owners, waiters, fencing count, and their expiry), forgotten once idle past the
 * fencing token's retention. Not thread-safe: every call is made under the {@link InMemoryLockStore}'s monitor, and
 * the hand-offs a call decides are added to {@code pending}.
 */
final class PermitTable {

    private final long fenceRetentionMillis;
    private final FencingTokens fences;
    private final Map<String, NamePermits> names = new HashMap<>();

    /** @param fences the fencing-token counts, shared with the store's locks: a name's tokens grow across kinds */
    PermitTable(long fenceRetentionMillis, FencingTokens fences) {
        this.fenceRetentionMillis = fenceRetentionMillis;
        this.fences = fences;
    }

    /** Whether {@code name} is a semaphore now: it has owners or waiters, or keeps its last fencing token. */
    boolean has(String name, long now) {
        NamePermits permits = names.get(name);
        if (permits == null) {
            return false;
        }
        permits.expire(now);
        if (permits.isIdle() && permits.keptUntil <= now) {
            names.remove(name);
            return false;
        }
        return true;
    }

    /** Whether {@code name} has owners or live waiters now (it is in use as a semaphore). */
    boolean inUse(String name, long now) {
        return has(name, now) && !names.get(name).isIdle();
    }

    /** See {@link InMemoryLockStore#takePermits}. */
    AcquireResult take(String name, String token, int count, int limit, long leaseMillis, boolean queue,
            long waiterTimeoutMillis, long now, List<Notice> pending) {
        NamePermits permits = has(name, now) ? names.get(name) : names.computeIfAbsent(name,
                key -> new NamePermits(fences, fenceRetentionMillis));
        if (permits.isIdle()) {
            permits.limit = limit;
        } else if (permits.limit != limit) {
            throw new IllegalStateException("Semaphore '" + name + "' has " + permits.limit + " permits, declared by "
                    + "the processes that hold or wait for them now, but this registry declares " + limit
                    + ": every process must declare the same number of permits for a name");
        }
        Owner owner = permits.owners.get(token);
        if (owner != null) {
            // handed to this token, or a repeated try: the permits are the caller's, with its full lease
            permits.waiters.remove(token);
            permits.owners.put(token, owner.until(now + leaseMillis));
            return AcquireResult.acquired(owner.fence(), now);
        }
        Waiter head = permits.firstLiveWaiter(now);
        if ((head == null || head.token().equals(token)) && (long) permits.inUse() + count <= limit) {
            permits.waiters.remove(token);
            return AcquireResult.acquired(permits.grant(name, token, count, leaseMillis, now), now);
        }
        if (queue) {
            permits.waiters.merge(token, new Waiter(token, count, leaseMillis, waiterTimeoutMillis,
                    now + waiterTimeoutMillis), (old, refreshed) -> refreshed);
        }
        return AcquireResult.busy(permits.soonestLeaseEnd(now), now);
    }

    /** See {@link InMemoryLockStore#leaveQueue}, for a semaphore's waiter. */
    AcquireResult leave(String name, String token, long leaseMillis, long now) {
        NamePermits permits = names.get(name);
        permits.waiters.remove(token);
        Owner owner = permits.live(token, now);
        if (owner == null) {
            return AcquireResult.busy(-1, now);
        }
        permits.owners.put(token, owner.until(now + leaseMillis));
        return AcquireResult.acquired(owner.fence(), now);
    }

    /**
     * Gives back the permits of {@code token} and hands them on to the waiters they let in; a release sent again
     * after it took effect ({@code fence}, unknown to a clean-up: {@code null}) reports it again within the life.
     */
    boolean release(String name, String token, Long fence, long now, List<Notice> pending) {
        NamePermits permits = names.get(name);
        permits.expire(now);
        if (permits.owners.remove(token) == null) {
            return permits.wasReleased(fence);
        }
        permits.keptUntil = now + fenceRetentionMillis;
        permits.handOn(name, now, pending);
        return true;
    }

    /** Keeps {@code count} of the permits of {@code token} (see {@link InMemoryLockStore#keepPermits}). */
    boolean keep(String name, String token, int count, long now, List<Notice> pending) {
        NamePermits permits = names.get(name);
        Owner owner = permits.live(token, now);
        if (owner == null) {
            return false;
        }
        if (count < owner.count()) {
            permits.owners.put(token, new Owner(count, owner.expiresAt(), owner.fence()));
            permits.handOn(name, now, pending);
        }
        return true;
    }

    /** Takes {@code token} out of the queue and gives back its permits, if any. */
    void abandon(String name, String token, long now, List<Notice> pending) {
        names.get(name).waiters.remove(token);
        release(name, token, null, now, pending);
    }

    boolean setLease(String name, String token, long leaseMillis, boolean onlyLonger, long now) {
        NamePermits permits = names.get(name);
        Owner owner = permits.live(token, now);
        if (owner == null) {
            return false;
        }
        if (!onlyLonger || owner.expiresAt() < now + leaseMillis) {
            permits.owners.put(token, owner.until(now + leaseMillis));
        }
        return true;
    }

    long remainingLeaseMillis(String name, String token, long now) {
        Owner owner = names.get(name).live(token, now);
        return owner == null ? -1 : owner.expiresAt() - now;
    }

    /** Forgets the semaphore, as an outsider deleting its key would: its holders find their permits lost. */
    void delete(String name) {
        names.remove(name);
    }

    /** How many waiters are queued with live entries. */
    int waitersQueued(String name, long now) {
        NamePermits permits = names.get(name);
        permits.expire(now);
        return permits.waiters.size();
    }

    /** How many permits are taken now; 0 if the name is no semaphore. */
    int permitsInUse(String name, long now) {
        return has(name, now) ? names.get(name).inUse() : 0;
    }

    /**
     * What an operator is shown of the semaphore {@code name}: its live holds counted, the newest (largest fencing
     * token) described, its live waiters listed in order (at most {@link LockSnapshot#MAX_WAITER_TOKENS}).
     */
    LockSnapshot inspect(String name, long now) {
        NamePermits permits = names.get(name);
        permits.expire(now);
        List<String> waiting = permits.waiters.keySet().stream().limit(LockSnapshot.MAX_WAITER_TOKENS).toList();
        Map.Entry<String, Owner> newest = permits.owners.entrySet().stream()
                .max(Comparator.comparingLong(entry -> entry.getValue().fence())).orElse(null);
        if (newest == null) {
            return new LockSnapshot(null, 0, 0, permits.waiters.size(), waiting, 0, 0, permits.limit);
        }
        return new LockSnapshot(newest.getKey(), newest.getValue().fence(), newest.getValue().expiresAt() - now,
                permits.waiters.size(), waiting, permits.owners.size(), permits.inUse(), permits.limit);
    }
}
