package dev.distlock.memory;

import dev.distlock.core.spi.Grant;
import dev.distlock.memory.GrantNotices.Notice;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * One semaphore's permits in the in-memory store ({@link PermitTable} keeps them by name): the permit count its
 * processes declared, its owners, its queue of waiters in arrival order, its fencing count and life, and how they
 * expire. Not thread-safe, as its table.
 *
 * <p>Each owner's lease runs out on its own: a dead holder's permits return at its lease end, and its token is noted
 * lost (the {@value #MAX_LOST} newest are kept). A new life begins only with a grant that finds nobody holding once
 * the fencing retention since the previous grant has passed; within a life, a release sent again after a reconnect
 * recognises, by its fencing token, that it took effect (unless its lease had run out: its token is then lost).
 */
final class NamePermits {

    /** How many lost tokens a semaphore remembers, as the Redis scripts' {@code MAX_LOST}. */
    private static final int MAX_LOST = 32;

    private final FencingTokens fences;
    private final long fenceRetentionMillis;

    int limit;
    final Map<String, Owner> owners = new LinkedHashMap<>();
    final LinkedHashMap<String, Waiter> waiters = new LinkedHashMap<>();
    /** The last fencing token issued, and the first of the current life. */
    private long fence;
    private long origin;
    /** Whether no token was issued yet: the next begins a life. */
    private boolean lifeEnded = true;
    /**
     * The tokens of this life's holds that ended without their release, at most {@link #MAX_LOST}: past that the
     * smallest is forgotten and the life's origin moves above it, as the Redis scripts do.
     */
    private final TreeSet<Long> lost = new TreeSet<>();
    /** Until when the last fencing token is kept once nobody holds or waits. */
    long keptUntil;

    NamePermits(FencingTokens fences, long fenceRetentionMillis) {
        this.fences = fences;
        this.fenceRetentionMillis = fenceRetentionMillis;
    }

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

    /**
     * Whether a hold of this life with the fencing token {@code fence} (unknown to a clean-up: {@code null}) ended by
     * its release: issued in this life, neither lost nor still held.
     */
    boolean wasReleased(Long fence) {
        return fence != null && fence >= origin && fence <= this.fence && !lost.contains(fence)
                && owners.values().stream().noneMatch(owner -> owner.fence() == fence);
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

    /** A token's permits: how many, until when, and their fencing token. */
    record Owner(int count, long expiresAt, long fence) {

        Owner until(long expiresAt) {
            return new Owner(count, expiresAt, fence);
        }
    }

    record Waiter(String token, int count, long leaseMillis, long timeoutMillis, long deadline) {
    }
}
