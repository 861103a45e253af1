package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A lock backend in memory: what Redis is to the Redis registry, with the same rules. Several
 * {@link InMemoryLockRegistry}s on one store exclude each other like processes on one Redis. Leases,
 * queue entries and fencing-token counts expire by the store's {@link Clock}, so tests can move time forward
 * instead of waiting. Fencing tokens follow the Redis rule: the larger of the last token plus one (while the
 * count lives, {@code fenceRetention} after its last use) and the clock in microseconds. Waiters queue with
 * their own deadlines and are handed the lock with a claim lease, exactly as on Redis.
 *
 * <p>{@link #delete(String)} and {@link #overwrite(String, String)} stand for someone else changing the
 * backend, for tests of lock loss.
 */
public final class InMemoryLockStore implements LockStore, HandOffNotices {

    private static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final long fenceRetentionMillis;
    private final Map<String, Held> holds = new HashMap<>();
    private final Map<String, Fence> fences = new HashMap<>();
    /**
     * The last released hold of each name, until its lease would have ended (at most the fence retention):
     * what a release run again finds.
     */
    private final Map<String, Held> released = new HashMap<>();
    private final Map<String, LinkedHashMap<String, Waiter>> queues = new HashMap<>();
    private final Map<String, Consumer<Grant>> grantListeners = new ConcurrentHashMap<>();
    private final Map<String, Announced> announcements = new HashMap<>();
    private int acquisitionsSinceSweep;

    /** A store on the system clock whose fencing token counts live an hour after their last use. */
    public InMemoryLockStore() {
        this(Clock.systemUTC(), Duration.ofHours(1));
    }

    /** A store whose leases expire by {@code clock}. */
    public InMemoryLockStore(Clock clock, Duration fenceRetention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.fenceRetentionMillis = Objects.requireNonNull(fenceRetention, "fenceRetention").toMillis();
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        List<Notice> notices = new ArrayList<>(1);
        AcquireResult result;
        synchronized (this) {
            long now = clock.millis();
            Held current = live(name, now);
            if (current == null) {
                Waiter head = firstLiveWaiter(name, now);
                if (head != null && !head.token().equals(token)) {
                    // a lease ran out with waiters queued: the lock goes to the first of them, not to a newcomer
                    Held granted = handOver(name, head, now, null, notices);
                    if (queue) {
                        enqueue(name, token, leaseMillis, waiterTimeoutMillis, now);
                    }
                    result = AcquireResult.busy(granted.expiresAt() - now, now);
                } else {
                    leave(name, token);
                    sweepNowAndThen(now);
                    result = AcquireResult.acquired(take(name, token, leaseMillis, now, null).fencingToken(), now);
                }
            } else if (current.token().equals(token)) {
                // handed to this token, or a repeated try: the hold is the caller's, with its full lease
                leave(name, token);
                holds.put(name, current.withExpiry(now + leaseMillis));
                result = AcquireResult.acquired(current.fencingToken(), now);
            } else {
                if (queue) {
                    enqueue(name, token, leaseMillis, waiterTimeoutMillis, now);
                }
                result = AcquireResult.busy(current.leaseLeft(now),
                        now);
            }
        }
        notify(notices);
        return result;
    }

    @Override
    public synchronized AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        long now = clock.millis();
        leave(name, token);
        Held current = heldBy(name, token, now);
        if (current != null) {
            holds.put(name, current.withExpiry(now + leaseMillis));
            return AcquireResult.acquired(current.fencingToken(), now);
        }
        return AcquireResult.busy(-1, now);
    }

    @Override
    public boolean release(String name, String token) {
        List<Notice> notices = new ArrayList<>(1);
        boolean released;
        synchronized (this) {
            released = releaseHeld(name, token, notices);
        }
        notify(notices);
        return released;
    }

    @Override
    public void abandon(String name, String token) {
        List<Notice> notices = new ArrayList<>(1);
        synchronized (this) {
            leave(name, token);
            releaseHeld(name, token, notices);
        }
        notify(notices);
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return setLease(name, token, leaseMillis, false);
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return setLease(name, token, leaseMillis, true);
    }

    private synchronized boolean setLease(String name, String token, long leaseMillis, boolean onlyLonger) {
        long now = clock.millis();
        Held current = heldBy(name, token, now);
        if (current == null) {
            return false;
        }
        if (!onlyLonger || current.expiresAt() < now + leaseMillis) {
            holds.put(name, current.withExpiry(now + leaseMillis));
        }
        return true;
    }

    @Override
    public synchronized boolean raiseFence(String name, String token, long fencingToken) {
        long now = clock.millis();
        Held current = heldBy(name, token, now);
        if (current == null) {
            return false;
        }
        Fence last = fences.get(name);
        long kept = last == null || last.expiresAt() <= now ? current.fencingToken() : last.value();
        if (fencingToken > kept) {
            fences.put(name, new Fence(fencingToken, now + fenceRetentionMillis));
            holds.put(name, new Held(token, current.expiresAt(), fencingToken, current.previousOwner()));
        }
        return true;
    }

    @Override
    public synchronized long remainingLeaseMillis(String name, String token) {
        long now = clock.millis();
        Held current = heldBy(name, token, now);
        if (current == null) {
            return -1;
        }
        return current.leaseLeft(now);
    }

    @Override
    public synchronized boolean isLocked(String name) {
        return live(name, clock.millis()) != null;
    }

    @Override
    public synchronized LockSnapshot inspect(String name) {
        long now = clock.millis();
        Held current = live(name, now);
        int waiting = waitersQueued(name);
        if (current == null) {
            return new LockSnapshot(null, 0, 0, waiting);
        }
        return new LockSnapshot(current.token(), current.fencingToken(),
                current.leaseLeft(now), waiting);
    }

    @Override
    public synchronized void announce(String instance, Map<String, String> description, long ttlMillis) {
        announcements.put(instance, new Announced(Map.copyOf(description), clock.millis() + ttlMillis));
    }

    @Override
    public synchronized Map<String, String> announcement(String instance) {
        Announced announced = announcements.get(instance);
        return announced != null && announced.expiresAt() > clock.millis() ? announced.description() : Map.of();
    }

    /** Itself: hand-offs in memory are heard at once, by every registry on this store. */
    @Override
    public HandOffNotices handOffs() {
        return this;
    }

    @Override
    public Subscription await(String name, String token, Consumer<Grant> onGrant) {
        grantListeners.put(token, onGrant);
        return () -> grantListeners.remove(token, onGrant);
    }

    /** Does nothing: the store may be shared by several registries. */
    @Override
    public void close() {
    }

    /** Deletes the lock as an outsider would (a test of lock loss). Nobody is told; waiters find out by polling. */
    public synchronized void delete(String name) {
        holds.remove(name);
    }

    /** Replaces the lock's owner by {@code token}, without expiry, as an outsider would. */
    public synchronized void overwrite(String name, String token) {
        holds.put(name, new Held(token, Long.MAX_VALUE, 0, null));
    }

    /** How many acquisitions wait in the queue for {@code name} (with live entries), for tests. */
    public synchronized int waitersQueued(String name) {
        Map<String, Waiter> waiters = queues.get(name);
        if (waiters == null) {
            return 0;
        }
        long now = clock.millis();
        int live = 0;
        for (Waiter waiter : waiters.values()) {
            if (waiter.deadline() >= now) {
                live++;
            }
        }
        return live;
    }

    /** Names held now, for tests. */
    public synchronized List<String> heldNames() {
        long now = clock.millis();
        return holds.entrySet().stream().filter(e -> e.getValue().expiresAt > now).map(Map.Entry::getKey).toList();
    }

    /**
     * Releases the hold of {@code token}, handing it to the first live waiter. A release repeated after it
     * took effect reports success again, whoever holds the lock since, until another release replaces its trace.
     */
    private boolean releaseHeld(String name, String token, List<Notice> notices) {
        long now = clock.millis();
        Held current = live(name, now);
        if (current == null || !current.token().equals(token)) {
            // run again? the first run handed the lock over from this token, or left its trace, or the trace is of
            // the owner it handed the lock to (as the release script answers)
            Held trace = released.get(name);
            boolean traced = trace != null && trace.expiresAt() > now;
            return current != null && token.equals(current.previousOwner())
                    || traced && (token.equals(trace.token()) || token.equals(trace.previousOwner()));
        }
        holds.remove(name);
        // as on Redis, the trace lives no longer than the lease would have; here, no longer than the fence either
        released.put(name, current.withExpiry(Math.min(current.expiresAt(), now + fenceRetentionMillis)));
        Waiter head = firstLiveWaiter(name, now);
        if (head != null) {
            handOver(name, head, now, token, notices);
        }
        return true;
    }

    /** Gives the lock to {@code waiter} with the next fencing token and its claim lease, and tells it. */
    private Held handOver(String name, Waiter waiter, long now, String previousOwner, List<Notice> notices) {
        long claim = Math.min(waiter.leaseMillis(), waiter.timeoutMillis());
        Held granted = take(name, waiter.token(), claim, now, previousOwner);
        notices.add(new Notice(waiter.token(), new Grant(granted.fencingToken(), now, claim)));
        return granted;
    }

    /** Gives the lock to {@code token} with the next fencing token. */
    private Held take(String name, String token, long leaseMillis, long now, String previousOwner) {
        Fence last = fences.get(name);
        long micros = TimeUnit.MILLISECONDS.toMicros(now);
        long fence = last != null && last.expiresAt() > now ? Math.max(last.value() + 1, micros) : micros;
        fences.put(name, new Fence(fence, now + fenceRetentionMillis));
        Held held = new Held(token, now + leaseMillis, fence, previousOwner);
        holds.put(name, held);
        return held;
    }

    /** Queues {@code token}, or refreshes its entry's deadline in place. */
    private void enqueue(String name, String token, long leaseMillis, long timeoutMillis, long now) {
        queues.computeIfAbsent(name, key -> new LinkedHashMap<>())
                .compute(token, (key, waiter) -> new Waiter(token, leaseMillis, timeoutMillis, now + timeoutMillis));
    }

    /** Takes the first waiter whose entry is still live out of the queue, dropping dead ones before it. */
    private Waiter firstLiveWaiter(String name, long now) {
        LinkedHashMap<String, Waiter> waiters = queues.get(name);
        if (waiters == null) {
            return null;
        }
        Waiter first = null;
        for (Iterator<Waiter> it = waiters.values().iterator(); it.hasNext() && first == null; ) {
            Waiter waiter = it.next();
            it.remove();
            if (waiter.deadline() >= now) {
                first = waiter;
            }
        }
        if (waiters.isEmpty()) {
            queues.remove(name);
        }
        return first;
    }

    private void leave(String name, String token) {
        Map<String, Waiter> waiters = queues.get(name);
        if (waiters != null && waiters.remove(token) != null && waiters.isEmpty()) {
            queues.remove(name);
        }
    }

    /** The live hold of {@code name} if {@code token} owns it, else {@code null}. */
    private Held heldBy(String name, String token, long now) {
        Held current = live(name, now);
        return current != null && current.token().equals(token) ? current : null;
    }

    private Held live(String name, long now) {
        Held held = holds.get(name);
        if (held != null && held.expiresAt() <= now) {
            holds.remove(name);
            return null;
        }
        return held;
    }

    private void notify(List<Notice> notices) {
        for (Notice notice : notices) {
            Consumer<Grant> listener = grantListeners.get(notice.token());
            if (listener != null) {
                listener.accept(notice.grant());
            }
        }
    }

    /** Drops expired entries now and then, so names used once do not stay in memory. */
    private void sweepNowAndThen(long now) {
        if (++acquisitionsSinceSweep < SWEEP_EVERY) {
            return;
        }
        acquisitionsSinceSweep = 0;
        holds.values().removeIf(held -> held.expiresAt() <= now);
        released.values().removeIf(held -> held.expiresAt() <= now);
        fences.values().removeIf(fence -> fence.expiresAt() <= now);
        queues.values().removeIf(waiters -> {
            waiters.values().removeIf(waiter -> waiter.deadline() < now);
            return waiters.isEmpty();
        });
    }

    private record Fence(long value, long expiresAt) {
    }

    private record Held(String token, long expiresAt, long fencingToken, String previousOwner) {

        Held withExpiry(long newExpiresAt) {
            return new Held(token, newExpiresAt, fencingToken, previousOwner);
        }

        /** The lease left at {@code now}; a hold without expiry never expires. */
        long leaseLeft(long now) {
            return expiresAt == Long.MAX_VALUE ? NEVER_EXPIRES : expiresAt - now;
        }
    }

    private record Waiter(String token, long leaseMillis, long timeoutMillis, long deadline) {
    }

    private record Notice(String token, Grant grant) {
    }

    private record Announced(Map<String, String> description, long expiresAt) {
    }
}
