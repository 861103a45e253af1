package dev.distlock.core.engine;

import dev.distlock.core.HoldKind;
import dev.distlock.core.Lease;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.hold.Downgrades;
import dev.distlock.core.engine.hold.HoldLeases;
import dev.distlock.core.engine.hold.HoldLifecycle;
import dev.distlock.core.engine.hold.NameTable;
import dev.distlock.core.engine.presence.HoldTokens;
import dev.distlock.core.engine.presence.Presence;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.engine.store.Cleanup;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.WaitQueue;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;

/**
 * One registry's engine, wired once when the registry is built: its store (the operations and what the store
 * offers, read once), time and threads, names in use, holds, waiting calls, listeners, presence and closing. An
 * acquisition is made with it and hands its caller the hold it made. It knows nothing of the registry and its
 * handles, the façade above it.
 */
public final class Engine {

    private final LockStore store;
    private final StoreCapabilities offers;
    /** The store's hand-off notices and queue ({@code null} if it has none). */
    private final HandOffNotices notices;
    private final WaitQueue queue;
    /** The store's operations for non-blocking callers and the background: its own, or made on the call threads. */
    private final AsyncLockStore sends;
    /** The store's operations made on the calling thread, for blocking callers: each stage complete on return. */
    private final AsyncLockStore callerSends;
    private final Duration defaultLease;
    private final long maxPollMillis;
    private final long waiterTimeoutMillis;
    private final Listeners listeners;
    private final HoldTokens tokens = new HoldTokens();
    private final NameTable names = new NameTable();
    private final Waiters waiters = new Waiters();
    private final EngineRuntime runtime;
    private final HoldLifecycle holds;
    private final HoldLeases leases;
    private final Downgrades downgrades;
    private final Presence presence;
    private final RegistryClosing closing;

    public Engine(LockStore store, EngineSettings settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.offers = Objects.requireNonNull(store.capabilities(), "store.capabilities()");
        this.notices = offers.handOffs().orElse(null);
        this.queue = offers.queue().orElse(null);
        this.defaultLease = settings.defaultLease();
        this.maxPollMillis = settings.maxPollMillis();
        this.waiterTimeoutMillis = HoldClock.waiterTimeoutMillis(maxPollMillis);
        this.listeners = new Listeners(settings.listeners());
        this.runtime = new EngineRuntime(settings.runtime());
        this.sends = offers.async().orElseGet(() -> AsyncLockStore.on(store, runtime.calls()));
        this.callerSends = AsyncLockStore.onCallingThread(store);
        this.holds = new HoldLifecycle(offers, sends, callerSends, names, listeners, runtime, waiterTimeoutMillis);
        this.leases = new HoldLeases(holds);
        this.downgrades = new Downgrades(holds);
        this.presence = new Presence(offers, runtime, tokens.instance(), settings.applicationName());
        this.closing = new RegistryClosing(names, waiters, holds, runtime, store);
    }

    public LockStore store() {
        return store;
    }

    public StoreCapabilities capabilities() {
        return offers;
    }

    /** How the store tells of hand-offs; {@code null} if it does not (its waiters poll). */
    public HandOffNotices notices() {
        return notices;
    }

    /** The store's queue; {@code null} if it has none (its waiters never queue, and give up by abandoning). */
    public WaitQueue queue() {
        return queue;
    }

    public AsyncLockStore sends() {
        return sends;
    }

    public AsyncLockStore callerSends() {
        return callerSends;
    }

    public Duration defaultLease() {
        return defaultLease;
    }

    public long maxPollMillis() {
        return maxPollMillis;
    }

    public long waiterTimeoutMillis() {
        return waiterTimeoutMillis;
    }

    public Listeners listeners() {
        return listeners;
    }

    public String newToken() {
        return tokens.next();
    }

    public NameTable names() {
        return names;
    }

    public Waiters waiters() {
        return waiters;
    }

    public EngineRuntime runtime() {
        return runtime;
    }

    public HoldLifecycle holds() {
        return holds;
    }

    public HoldLeases leases() {
        return leases;
    }

    public Downgrades downgrades() {
        return downgrades;
    }

    public Cleanup cleanup() {
        return holds.cleanup();
    }

    public Presence presence() {
        return presence;
    }

    public RegistryClosing closing() {
        return closing;
    }

    public boolean isClosed() {
        return closing.isClosed();
    }

    public void checkOpen(String name) {
        if (closing.isClosed()) {
            throw new IllegalStateException("Lock '" + name + "' cannot be acquired: its registry is closed");
        }
    }

    /** Whether anybody holds {@code name}, as the store reads it. */
    public boolean isLocked(String name) {
        LockReads reads = offers.reads().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " cannot read its locks"));
        return StoreCalls.call(name, "check the lock", () -> reads.isLocked(name));
    }

    /** What a call on {@code name} asks for; its name's state is kept from now until the call or its hold ends. */
    public LockRequest request(String name, Lease lease, String label) {
        return new LockRequest(names.retain(name), name, label, lease.durationOr(defaultLease).toMillis(),
                lease.isRenewed(), 0, 0, HoldKind.LOCK);
    }

    /**
     * Fails if the store offers no counted claims (semaphores, read-write locks), naming it and {@code what} was asked
     * for (e.g. {@code Semaphore 'jobs'}).
     */
    public void checkPermitsOffered(String what) {
        if (offers.permits().isEmpty()) {
            throw new UnsupportedOperationException(what + ": " + store.getClass().getSimpleName()
                    + " offers no semaphores with leased permits, nor read-write locks");
        }
    }

    /**
     * What a call for {@code permits} of the semaphore {@code name} of {@code limit} asks for, as {@link #request}.
     *
     * @throws UnsupportedOperationException if the store offers no permits
     */
    public LockRequest permitRequest(String name, int permits, int limit, HoldKind kind, Lease lease, String label) {
        checkPermitsOffered("'" + name + "'");
        return new LockRequest(names.retain(name), name, label, lease.durationOr(defaultLease).toMillis(),
                lease.isRenewed(), permits, limit, kind);
    }

    /**
     * An acquisition ended: with {@code hold}, which from now on is watched and counted among this registry's holds;
     * or without ({@code null}), and its name's state is no longer kept for it.
     */
    public void settle(LockRequest request, Hold hold, HoldLifecycle.Acquired by) {
        if (hold == null) {
            names.release(request.state(), request.name());
            return;
        }
        presence.announceFromNowOn();
        holds.start(hold, by);
    }

    /**
     * A call of this registry waits in the store's queue: from now on the registry announces itself, so that other
     * processes' {@code inspect} can name it in the queue (once announced, this costs nothing).
     */
    public void queued() {
        presence.announceFromNowOn();
    }

    /** Completes once this registry's first announcement was answered (see {@link Presence#announceFromNowOn}). */
    public CompletableFuture<Void> announced() {
        return presence.announceFromNowOn();
    }
}
