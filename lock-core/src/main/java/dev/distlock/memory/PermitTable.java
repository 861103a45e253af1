package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.memory.GrantNotices.Notice;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * The in-memory store's semaphores with leased permits, by the rules the Redis scripts keep for them: per name, the
 * permit count its processes declared, its owners (token: permits, lease end, fencing token), its queue of waiters in
 * arrival order, and one fencing count for all its holds. Not thread-safe: every call is made under the
 * {@link InMemoryLockStore}'s monitor, and the hand-offs a call decides are added to {@code pending}.
 *
 * <p>Each owner's lease runs out on its own: a dead holder's permits return at its lease end. Within one life of a
 * name every hold ends by its owner's release; a lease that ran out ends the life (the next token starts it again),
 * so a release sent again after a reconnect recognises, by its fencing token, that it took effect.
 */
final class PermitTable {

    /** How many lost tokens a semaphore remembers, as the Redis scripts' {@code MAX_LOST}. */
    private static final int MAX_LOST = 32;

    private final long fenceRetentionMillis;
    private final FencingTokens fences;
    private final Map<String, Permits> names = new HashMap<>();

    /** @param fences the fencing-token counts, shared with the store's locks: a name's tokens grow across kinds */
    PermitTable(long fenceRetentionMillis, FencingTokens fences) {
        this.fenceRetentionMillis = fenceRetentionMillis;
        this.fences = fences;
    }

    /** Whether {@code name} is a semaphore now: it has owners or waiters, or keeps its last fencing token. */
    boolean has(String name, long now) {
        Permits permits = names.get(name);
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
        Permits permits = has(name, now) ? names.get(name) : names.computeIfAbsent(name, key -> new Permits());
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
        Permits permits = names.get(name);
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
        Permits permits = names.get(name);
        permits.expire(now);
        if (permits.owners.remove(token) == null) {
            return fence != null && fence >= permits.origin && fence <= permits.fence && !permits.lost.contains(fence)
                    && permits.owners.values().stream().noneMatch(owner -> owner.fence() == fence);
        }
        permits.keptUntil = now + fenceRetentionMillis;
        permits.handOn(name, now, pending);
        return true;
    }

    /** Keeps {@code count} of the permits of {@code token} (see {@link InMemoryLockStore#keepPermits}). */
    boolean keep(String name, String token, int count, long now, List<Notice> pending) {
        Permits permits = names.get(name);
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
        Permits permits = names.get(name);
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
        Permits permits = names.get(name);
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
        Permits permits = names.get(name);
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

    /** One name's permits: its count, owners, waiters and fencing count. */
    private final class Permits {

        int limit;
        final Map<String, Owner> owners = new LinkedHashMap<>();
        final LinkedHashMap<String, Waiter> waiters = new LinkedHashMap<>();
        /** The last fencing token issued, and the first of the current life. */
        long fence;
        long origin;
        /** Whether no token was issued yet: the next begins a life. */
        boolean lifeEnded = true;
        /**
         * The tokens of this life's holds that ended without their release, at most {@link #MAX_LOST}: past that the
         * smallest is forgotten and the life's origin moves above it, as the Redis scripts do.
         */
        final TreeSet<Long> lost = new TreeSet<>();
        /** Until when the last fencing token is kept once nobody holds or waits. */
        long keptUntil;

        /** Drops owners whose lease ran out (their tokens noted lost) and waiters past their deadline. */
        void expire(long now) {
            for (Iterator<Owner> it = owners.values().iterator(); it.hasNext(); ) {
                Owner owner = it.next();
                if (owner.expiresAt() <= now) {
                    it.remove();
                    lost.add(owner.fence());
                    if (lost.size() > MAX_LOST) {
                        origin = lost.pollFirst() + 1;
                    }
                }
            }
            waiters.values().removeIf(waiter -> waiter.deadline() < now);
        }

        boolean isIdle() {
            return owners.isEmpty() && waiters.isEmpty();
        }

        int inUse() {
            return owners.values().stream().mapToInt(Owner::count).sum();
        }

        Owner live(String token, long now) {
            expire(now);
            return owners.get(token);
        }

        Waiter firstLiveWaiter(long now) {
            expire(now);
            return waiters.isEmpty() ? null : waiters.values().iterator().next();
        }

        /** When the first owner's lease runs out, from now; negative if nobody holds a permit. */
        long soonestLeaseEnd(long now) {
            return owners.values().stream().mapToLong(owner -> owner.expiresAt() - now).min().orElse(-1);
        }

        /** Grants the permits with the name's next fencing token (see {@link FencingTokens#next}). */
        long grant(String name, String token, int count, long leaseMillis, long now) {
            long next = fences.next(name, now);
            if (lifeEnded || keptUntil <= now && owners.isEmpty()) {
                origin = next;
                lifeEnded = false;
                lost.clear();
            }
            fence = next;
            keptUntil = now + fenceRetentionMillis;
            owners.put(token, new Owner(count, now + leaseMillis, next));
            return next;
        }

        /** Hands the free permits to the waiters at the head of the queue, in order, as long as each fits. */
        void handOn(String name, long now, List<Notice> pending) {
            for (Waiter head = firstLiveWaiter(now); head != null && inUse() + head.count() <= limit;
                    head = firstLiveWaiter(now)) {
                waiters.remove(head.token());
                long claim = Math.min(head.leaseMillis(), head.timeoutMillis());
                long granted = grant(name, head.token(), head.count(), claim, now);
                pending.add(new Notice(head.token(), new Grant(granted, now, claim)));
            }
        }
    }

    private record Owner(int count, long expiresAt, long fence) {

        Owner until(long expiresAt) {
            return new Owner(count, expiresAt, fence);
        }
    }

    private record Waiter(String token, int count, long leaseMillis, long timeoutMillis, long deadline) {
    }
}
