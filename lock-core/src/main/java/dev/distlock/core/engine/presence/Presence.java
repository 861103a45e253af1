package dev.distlock.core.engine.presence;

import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockWaiter;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.spi.Announcements;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who a registry is, and how other processes learn it: its identity (application, host, pid, start) is announced
 * in the store from its first hold (or first wait in the store's queue) on and kept alive while the registry is open,
 * so that {@code inspect} in any process can name the holder of a lock and the processes in its queue
 * ({@link #inspect}). A few bytes per registry, nothing per acquisition.
 */
public final class Presence {

    private static final Logger log = LoggerFactory.getLogger(Presence.class);

    /** How long an announcement lives in the store; it is renewed every third of it while the registry is open. */
    private static final long TTL_MILLIS = 60_000;

    /** Who the store says the registries are; {@code null} if it cannot tell. */
    private final Announcements announcements;
    private final StoreCapabilities offers;
    private final EngineRuntime runtime;
    private final String instance;
    private final String application;
    private final Instant createdAt;
    private final AtomicBoolean announcing = new AtomicBoolean();
    /** Completes once the first announcement was answered (or failed, or the registry closed first). */
    private final CompletableFuture<Void> firstAnnounced;
    private final QueueNames queueNames = new QueueNames(this::announced);
    private volatile LockHolder identity;

    public Presence(StoreCapabilities offers, EngineRuntime runtime, String instance, String application) {
        this.offers = offers;
        this.announcements = offers.announcements().orElse(null);
        this.runtime = runtime;
        this.createdAt = Instant.ofEpochMilli(runtime.currentTimeMillis());
        this.instance = instance;
        this.application = application;
        this.firstAnnounced = announcements == null ? CompletableFuture.completedFuture(null)
                : new CompletableFuture<>();
    }

    /** This registry (the host name is looked up on first use, off the hot paths). */
    public LockHolder identity() {
        LockHolder self = identity;
        if (self == null) {
            self = Announcement.of(instance, application, createdAt);
            identity = self;
        }
        return self;
    }

    /**
     * The holder of the lock held under {@code ownerToken}: this registry, or what the registry that issued the
     * token announced ({@code null} if nothing, or nothing any more). Reads the store for another registry.
     */
    LockHolder holderOf(String ownerToken) {
        return announced(HoldTokens.instanceOf(ownerToken));
    }

    /** What registry {@code owner} announced: this registry, or what the store keeps ({@code null} if nothing). */
    private LockHolder announced(String owner) {
        if (owner.equals(instance)) {
            return identity();
        }
        return announcements == null ? null : Announcement.fromMap(owner, announcements.announcement(owner));
    }

    /**
     * What the store knows of lock {@code name} now, with what its holder's registry and the registries in its queue
     * announced.
     */
    public LockInfo inspect(String name) {
        LockReads reads = offers.reads().orElseThrow(() -> new UnsupportedOperationException(
                "the lock store cannot read its locks"));
        LockSnapshot snapshot = StoreCalls.call(name, "inspect the lock", () -> reads.inspect(name));
        List<LockWaiter> queue = StoreCalls.call(name, "read who waits for the lock",
                () -> queueNames.name(snapshot.waiterTokens()));
        if (snapshot.ownerToken() == null) {
            return new LockInfo(name, false, null, 0, null, Duration.ZERO, snapshot.waiting(), queue, 0, 0,
                    snapshot.permits());
        }
        LockHolder holder = StoreCalls.call(name, "read who holds the lock", () -> holderOf(snapshot.ownerToken()));
        long fence = snapshot.fencingToken();
        long lease = snapshot.remainingLeaseMillis();
        return new LockInfo(name, true, holder, fence, fence > 0 ? Instant.EPOCH.plus(fence, ChronoUnit.MICROS) : null,
                lease == LockStore.NEVER_EXPIRES ? null : Duration.ofMillis(lease), snapshot.waiting(), queue,
                snapshot.holds(), snapshot.permitsInUse(), snapshot.permits());
    }

    /**
     * From the first hold (or first wait in the store's queue) on, keeps this registry's announcement alive in the
     * store, in the background. The future completes once the first announcement was answered (or failed): an
     * acquisition reports its hold only then, so that another process's {@code inspect} never finds the lock held by
     * nobody it can name. A store that keeps no announcements has nothing to wait for.
     */
    public CompletableFuture<Void> announceFromNowOn() {
        if (announcements != null && !announcing.get() && announcing.compareAndSet(false, true)) {
            announceNowAndLater();
        }
        return firstAnnounced;
    }

    /** Announces on a call thread, then again a third of the announcement's lifetime later, until the registry closes. */
    private void announceNowAndLater() {
        try {
            runtime.calls().execute(this::announce);
            runtime.schedule(this::announceNowAndLater, TimeUnit.MILLISECONDS.toNanos(TTL_MILLIS / 3));
        } catch (RejectedExecutionException closed) {
            firstAnnounced.complete(null); // the registry is closing
        }
    }

    private void announce() {
        try {
            announcements.announce(instance, Announcement.toMap(identity()), TTL_MILLIS);
        } catch (RuntimeException failure) {
            log.debug("Announcing this registry failed; trying again later", failure);
        } finally {
            firstAnnounced.complete(null);
        }
    }
}
