package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.FenceRaising;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.WaitQueue;
import dev.distlock.memory.GrantNotices.Notice;
import dev.distlock.memory.WaiterQueues.Waiter;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

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
 *
 * <p>The state lives in helpers touched only under this store's monitor; hand-offs are decided under it and
 * told by {@link GrantNotices} once it is let go.
 */
public final class InMemoryLockStore
        implements LockStore, WaitQueue, FenceRaising, LockReads, ForcedRelease, HandOffNotices {

    private static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final Holds holds;
    private final ReleaseTraces released;
    private final WaiterQueues queues = new WaiterQueues();
    private final GrantNotices notices = new GrantNotices();
    private final StoreCapabilities capabilities;
    private int acquisitionsSinceSweep;

    /** A store on the system clock whose fencing token counts live an hour after their last use. */
    public InMemoryLockStore() {
        this(Clock.systemUTC(), Duration.ofHours(1));
    }

    /** A store whose leases expire by {@code clock}. */
    public InMemoryLockStore(Clock clock, Duration fenceRetention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        long fenceRetentionMillis = Objects.requireNonNull(fenceRetention, "fenceRetention").toMillis();
        this.holds = new Holds(new FencingTokens(fenceRetentionMillis));
        this.released = new ReleaseTraces(fenceRetentionMillis);
        this.capabilities = StoreCapabilities.builder().queue(this).handOffs(this).fenceRaising(this).reads(this)
                .forcedRelease(this).announcements(new AnnouncedRegistries(this.clock)).build();
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return handingOff(pending -> {
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
        });
    }

    @Override
    public synchronized AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        long now = clock.millis();
        queues.leave(name, token);
        Held current = holds.heldBy(name, token, now);
        if (current != null) {
            holds.put(name, current.withExpiry(now + leaseMillis));
            return AcquireResult.acquired(current.fencingToken(), now);
        }
        return AcquireResult.busy(-1, now);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return handingOff(pending -> releaseHeld(name, token, fencingToken, pending));
    }

    @Override
    public void abandon(String name, String token) {
        handingOff(pending -> {
            queues.leave(name, token);
            return releaseHeld(name, token, null, pending);
        });
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
        return holds.setLease(name, token, leaseMillis, onlyLonger, clock.millis());
    }

    @Override
    public synchronized boolean raiseFence(String name, String token, long fencingToken) {
        return holds.raiseFence(name, token, fencingToken, clock.millis());
    }

    /**
     * Ends the hold with {@code fencingToken} as its owner's release would, but in a new life of the name: the hold
     * counts as lost, so neither its owner's release nor a replay of an earlier one reports a release any more.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return handingOff(pending -> {
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
        });
    }

    @Override
    public synchronized long remainingLeaseMillis(String name, String token) {
        long now = clock.millis();
        Held current = holds.heldBy(name, token, now);
        return current == null ? -1 : current.leaseLeft(now);
    }

    @Override
    public synchronized boolean isLocked(String name) {
        return holds.live(name, clock.millis()) != null;
    }

    @Override
    public synchronized LockSnapshot inspect(String name) {
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

    /**
     * A queue, hand-off notices (heard at once, by every registry on this store), fencing tokens raised, reads,
     * forced releases and announcements; its calls never block for long, so it has no asynchronous client.
     */
    @Override
    public StoreCapabilities capabilities() {
        return capabilities;
    }

    @Override
    public Subscription await(String name, String token, Consumer<Grant> onGrant) {
        return notices.await(token, onGrant);
    }

    /** Does nothing: the store may be shared by several registries. */
    @Override
    public void close() {
    }

    /** Deletes the lock as an outsider would (a test of lock loss). Nobody is told; waiters find out by polling. */
    public synchronized void delete(String name) {
        holds.remove(name);
        released.forget(name);
    }

    /** Replaces the lock's owner by {@code token}, without expiry, as an outsider would. */
    public synchronized void overwrite(String name, String token) {
        holds.put(name, new Held(token, Long.MAX_VALUE, 0, 0));
    }

    /** How many acquisitions wait in the queue for {@code name} (with live entries), for tests. */
    public synchronized int waitersQueued(String name) {
        // the clock is read only if there is a queue, as before the queues had a class of their own
        return queues.hasQueue(name) ? queues.liveWaiters(name, clock.millis()) : 0;
    }

    /** Names held now, for tests. */
    public synchronized List<String> heldNames() {
        return holds.liveNames(clock.millis());
    }

    /**
     * Runs {@code body} under the store's lock, then tells the waiters it handed the lock to, outside it: listeners
     * run foreign code, which must not run under the lock.
     */
    private <T> T handingOff(Function<List<Notice>, T> body) {
        List<Notice> pending = new ArrayList<>(1);
        T result;
        synchronized (this) {
            result = body.apply(pending);
        }
        notices.deliver(pending);
        return result;
    }

    /**
     * Releases the hold of {@code token}, handing it to the first live waiter or freeing it. A release run again after
     * it took effect reports success again, whoever holds the lock since, as long as the name's life goes on: its
     * hold's {@code fence} (unknown to a clean-up: {@code null}) was issued in it, and every hold of a life ends by
     * its owner's release (one that ran out, or was deleted, ended the life).
     */
    private boolean releaseHeld(String name, String token, Long fence, List<Notice> pending) {
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
