package dev.distlock.core.support;

import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.core.spi.WaitQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * A {@link LockRegistry} on a {@link LockStore}, the same for every backend: a thin façade over the engine.
 *
 * <ul>
 *   <li>an {@link Acquisition} per call, started by the {@link Acquirer}: calls of this registry queue locally per name ({@link NameGate}), so at
 *   most one of them talks to the backend; waiters queue in the store and are handed the lock by the release
 *   before them, with a bounded, jittered poll as a fallback; a blocking caller runs the acquisition's steps on
 *   its own thread, a non-blocking one on the registry's step threads ({@link StepRunners});</li>
 *   <li>re-entrant holds are counted locally per thread and cost no backend call;</li>
 *   <li>each {@link Hold} is a state machine trusted only until a local deadline ({@link HoldClock}); its
 *   release, extension, lease reads and loss are {@link HoldLifecycle}'s, which the {@link Watchdog} tells of a
 *   passed deadline;</li>
 *   <li>the names in use ({@link NameTable}), who this registry is ({@link Presence}), its threads
 *   ({@link EngineRuntime}) and how it calls the store ({@link StoreCalls}, {@link Cleanup}) each have one
 *   owner.</li>
 * </ul>
 */
public abstract class StoreLockRegistry implements LockRegistry, AutoCloseable {

    private final LockStore store;
    /** What the store offers beyond its owner-checked operations, read once. */
    private final StoreCapabilities offers;
    /** The store's hand-off notices and queue ({@code null} if it has none), read once for every acquisition. */
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
    private final Acquirer acquirer = new Acquirer(this);
    private final Presence presence;
    private final RegistryClosing closing;

    protected StoreLockRegistry(LockStore store, LockRegistryBuilder<?> settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.offers = Objects.requireNonNull(store.capabilities(), "store.capabilities()");
        this.notices = offers.handOffs().orElse(null);
        this.queue = offers.queue().orElse(null);
        this.defaultLease = settings.defaultLease();
        this.maxPollMillis = settings.maxPollIntervalMillis();
        this.waiterTimeoutMillis = HoldClock.waiterTimeoutMillis(maxPollMillis);
        this.listeners = new Listeners(settings.listeners());
        this.runtime = new EngineRuntime(settings.runtime());
        this.sends = offers.async().orElseGet(() -> AsyncLockStore.on(store, runtime.calls()));
        this.callerSends = AsyncLockStore.onCallingThread(store);
        this.holds = new HoldLifecycle(offers, sends, callerSends, names, listeners, runtime, waiterTimeoutMillis());
        this.leases = new HoldLeases(holds);
        this.presence = new Presence(offers, runtime, tokens.instance(), settings.applicationName());
        this.closing = new RegistryClosing(names, waiters, runtime, store);
    }

    @Override
    public FencedLock obtain(String name, Lease lease, String label) {
        return new StoreLock(this, LockNames.validate(name), Objects.requireNonNull(lease, "lease"), label);
    }

    @Override
    public FencedLock obtainAll(Collection<String> names, Lease lease, String label) {
        return StoreNamesLock.of(this, names, lease, label);
    }

    @Override
    public List<HeldLock> heldLocks() {
        List<HeldLock> held = new ArrayList<>();
        for (Hold hold : names.holds()) {
            if (hold.isHeld()) {
                held.add(new HeldLock(hold.name, hold.label, hold.fencingToken, hold.acquiredAt(),
                        StoreSends.await(() -> leases.remainingLease(hold, holds.blocking())), hold.renewed));
            }
        }
        return held;
    }

    @Override
    public LockInfo inspect(String name) {
        return presence.inspect(LockNames.validate(name));
    }

    /**
     * Asks the store ({@link ForcedRelease}); throws {@link UnsupportedOperationException} if the store offers no
     * forced release.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        String checked = LockNames.validate(name);
        ForcedRelease forced = offers.forcedRelease().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " cannot force a release"));
        return StoreCalls.call(checked, "force the release", () -> forced.forceRelease(checked, fencingToken));
    }

    /** Who this registry is, as it announces itself to other processes' {@link #inspect}. */
    public LockHolder identity() {
        return presence.identity();
    }

    /** The lease a {@link Lease#renewed()} hold gets. */
    public Duration getDefaultLease() {
        return defaultLease;
    }

    /**
     * Withdraws the calls still waiting (they leave the store's queue and fail with
     * {@link IllegalStateException}), stops renewing and frees the backend resources. Holds still open expire
     * with their leases.
     */
    @Override
    public void close() {
        closing.close();
    }

    /**
     * {@link #close()} without waiting: the stage completes once the waiting calls withdrew (at most five seconds on
     * the registry's runtime) and the backend resources are freed.
     */
    public CompletionStage<Void> closeAsync() {
        return closing.closeAsync();
    }

    // --- used by StoreLock and StoreDetachedLock ---

    /** The current thread's hold of {@code name}. */
    Hold ownHold(String name) {
        Hold hold = ownHoldOrNull(name);
        if (hold == null) {
            throw new IllegalMonitorStateException("Lock '" + name + "' is not held by the current thread ("
                    + Thread.currentThread().getName() + ")");
        }
        return hold;
    }

    /** The current thread's hold of {@code name} (it may have been lost), or {@code null}. */
    Hold ownHoldOrNull(String name) {
        return names.heldBy(name, Thread.currentThread());
    }

    HoldLifecycle holds() {
        return holds;
    }

    Acquirer acquirer() {
        return acquirer;
    }

    NameTable names() {
        return names;
    }

    EngineRuntime runtime() {
        return runtime;
    }

    HoldLeases leases() {
        return leases;
    }

    /** How a blocking caller's commands go out: on its own thread. */
    StoreSends blocking() {
        return holds.blocking();
    }

    /** How a non-blocking caller's commands go out: without waiting, answered on the step executors. */
    StoreSends nonBlocking() {
        return holds.nonBlocking();
    }

    boolean isLocked(String name) {
        LockReads reads = offers.reads().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " cannot read its locks"));
        return StoreCalls.call(name, "check the lock", () -> reads.isLocked(name));
    }

    // --- used by Acquisition ---

    /**
     * An acquisition ended: with {@code hold}, which from now on is watched and counted among this registry's
     * holds; or without ({@code null}), and its name's state is no longer kept for it.
     */
    void settle(Acquisition acquisition, LockRequest request, Hold hold) {
        if (hold == null) {
            names.release(request.state(), request.name());
            return;
        }
        presence.announceFromNowOn();
        holds.start(hold, acquisition);
    }

    /**
     * A call of this registry waits in the store's queue: from now on the registry announces itself, so that other
     * processes' {@link #inspect} can name it in the queue (once announced, this costs nothing).
     */
    void queued() {
        presence.announceFromNowOn();
    }

    /** Completes once this registry's first announcement was answered (see {@link Presence#announceFromNowOn}). */
    CompletableFuture<Void> announced() {
        return presence.announceFromNowOn();
    }

    StoreCapabilities capabilities() {
        return offers;
    }

    /** How the store tells of hand-offs; {@code null} if it does not (its waiters poll). */
    HandOffNotices notices() {
        return notices;
    }

    /** The store's queue; {@code null} if it has none (its waiters never queue, and give up by abandoning). */
    WaitQueue queue() {
        return queue;
    }

    AsyncLockStore sends() {
        return sends;
    }

    AsyncLockStore callerSends() {
        return callerSends;
    }

    String newToken() {
        return tokens.next();
    }

    long maxPollMillis() {
        return maxPollMillis;
    }

    long waiterTimeoutMillis() {
        return waiterTimeoutMillis;
    }

    Listeners listeners() {
        return listeners;
    }

    Cleanup cleanup() {
        return holds.cleanup();
    }

    boolean isClosed() {
        return closing.isClosed();
    }

    void checkOpen(String name) {
        if (closing.isClosed()) {
            throw new IllegalStateException("Lock '" + name + "' cannot be acquired: its registry is closed");
        }
    }

    Waiters waiters() {
        return waiters;
    }

    /** Number of names this registry keeps state for: those held or waited for right now (for leak checks). */
    protected final int namesInUse() {
        return names.size();
    }

    // --- internals ---

    /** What a call on {@code name} asks for; its name's state is kept from now until the call or its hold ends. */
    LockRequest request(String name, Lease lease, String label) {
        return new LockRequest(runtime, names.retain(name), name, label, lease.durationOr(defaultLease).toMillis(),
                lease.isRenewed());
    }
}
