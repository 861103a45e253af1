package dev.distlock.memory;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.FenceRaising;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PermitClaims;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.WaitQueue;
import dev.distlock.memory.GrantNotices.Notice;
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
 * <p>The locks and their rules live in a {@link LockTable} touched only under this store's monitor; hand-offs are
 * decided under it and told by {@link GrantNotices} once it is let go.
 */
public final class InMemoryLockStore
        implements LockStore, WaitQueue, FenceRaising, LockReads, ForcedRelease, HandOffNotices, PermitClaims {

    private final Clock clock;
    private final LockTable table;
    private final PermitTable permits;
    private final GrantNotices notices = new GrantNotices();
    private final StoreCapabilities capabilities;

    /** A store on the system clock whose fencing token counts live an hour after their last use. */
    public InMemoryLockStore() {
        this(Clock.systemUTC(), Duration.ofHours(1));
    }

    /** A store whose leases expire by {@code clock}. */
    public InMemoryLockStore(Clock clock, Duration fenceRetention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        long retention = Objects.requireNonNull(fenceRetention, "fenceRetention").toMillis();
        FencingTokens fences = new FencingTokens(retention);
        this.table = new LockTable(this.clock, retention, fences);
        this.permits = new PermitTable(retention, fences);
        this.capabilities = StoreCapabilities.builder().queue(this).handOffs(this).fenceRaising(this).reads(this)
                .forcedRelease(this).announcements(new AnnouncedRegistries(this.clock)).permits(this).build();
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return handingOff(pending -> {
            long now = clock.millis();
            if (permits.inUse(name, now)) {
                throw new IllegalStateException("Lock '" + name + "' cannot be taken: the name is a semaphore now, "
                        + "whose permits are held or waited for");
            }
            permits.delete(name); // an unused semaphore: the name is a lock from now on
            return table.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis, pending);
        });
    }

    @Override
    public AcquireResult takePermits(String name, String token, int count, int limit, long leaseMillis,
            boolean queue, long waiterTimeoutMillis) {
        return handingOff(pending -> {
            if (table.isLocked(name) || table.waitersQueued(name) > 0) {
                throw new IllegalStateException("Semaphore '" + name + "': the name is a lock now, held or waited "
                        + "for, not a semaphore");
            }
            return permits.take(name, token, count, limit, leaseMillis, queue, waiterTimeoutMillis, clock.millis(),
                    pending);
        });
    }

    @Override
    public boolean keepPermits(String name, String token, int count) {
        return handingOff(pending -> {
            long now = clock.millis();
            return permits.has(name, now) && permits.keep(name, token, count, now, pending);
        });
    }

    @Override
    public synchronized AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        long now = clock.millis();
        return permits.has(name, now) ? permits.leave(name, token, leaseMillis, now)
                : table.leaveQueue(name, token, leaseMillis);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return handingOff(pending -> {
            long now = clock.millis();
            return permits.has(name, now) ? permits.release(name, token, fencingToken, now, pending)
                    : table.releaseHeld(name, token, fencingToken, pending);
        });
    }

    @Override
    public void abandon(String name, String token) {
        handingOff(pending -> {
            long now = clock.millis();
            if (permits.has(name, now)) {
                permits.abandon(name, token, now, pending);
            } else {
                table.abandon(name, token, pending);
            }
            return null;
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
        long now = clock.millis();
        return permits.has(name, now) ? permits.setLease(name, token, leaseMillis, onlyLonger, now)
                : table.setLease(name, token, leaseMillis, onlyLonger);
    }

    @Override
    public synchronized boolean raiseFence(String name, String token, long fencingToken) {
        return table.raiseFence(name, token, fencingToken);
    }

    /**
     * Ends the hold with {@code fencingToken} as its owner's release would, but in a new life of the name: the hold
     * counts as lost, so neither its owner's release nor a replay of an earlier one reports a release any more.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return handingOff(pending -> table.forceRelease(name, fencingToken, pending));
    }

    @Override
    public synchronized long remainingLeaseMillis(String name, String token) {
        long now = clock.millis();
        return permits.has(name, now) ? permits.remainingLeaseMillis(name, token, now)
                : table.remainingLeaseMillis(name, token);
    }

    /** Whether the lock is held, or any permit of the semaphore of that name. */
    @Override
    public synchronized boolean isLocked(String name) {
        return table.isLocked(name) || permits.permitsInUse(name, clock.millis()) > 0;
    }

    /** How many permits of the semaphore {@code name} are held now (0 if the name is no semaphore), for tests. */
    public synchronized int permitsInUse(String name) {
        return permits.permitsInUse(name, clock.millis());
    }

    @Override
    public synchronized LockSnapshot inspect(String name) {
        long now = clock.millis();
        return permits.has(name, now) ? permits.inspect(name, now) : table.inspect(name);
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

    /** Deletes the lock (or the semaphore) as an outsider would (a test of lock loss). Nobody is told; waiters find out by polling. */
    public synchronized void delete(String name) {
        table.delete(name);
        permits.delete(name);
    }

    /** Replaces the lock's owner by {@code token}, without expiry, as an outsider would. */
    public synchronized void overwrite(String name, String token) {
        table.overwrite(name, token);
    }

    /** How many acquisitions wait in the queue for {@code name} (with live entries), for tests. */
    public synchronized int waitersQueued(String name) {
        long now = clock.millis();
        return permits.has(name, now) ? permits.waitersQueued(name, now) : table.waitersQueued(name);
    }

    /** Names held now, for tests. */
    public synchronized List<String> heldNames() {
        return table.heldNames();
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
}
