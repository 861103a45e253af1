package dev.distlock.core.support;

import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.Lease;
import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineSettings;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.engine.store.StoreSends;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.LockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * A {@link LockRegistry} on a {@link LockStore}, the same for every backend: a thin façade over the engine.
 *
 * <ul>
 *   <li>an {@link Acquisition} per call, started by the {@link Acquirer}: calls of this registry queue locally per
 *   name ({@link NameGate}), so at most one of them talks to the backend; waiters queue in the store and are
 *   handed the lock by the release before them, with a bounded, jittered poll as a fallback; a blocking caller
 *   runs the acquisition's steps on its own thread, a non-blocking one on the registry's step threads
 *   ({@link StepRunners});</li>
 *   <li>re-entrant holds are counted locally per thread and cost no backend call;</li>
 *   <li>each {@link Hold} is a state machine trusted only until a local deadline ({@link HoldClock}); its
 *   release, extension, lease reads and loss are {@link HoldLifecycle}'s, which the {@link Watchdog} tells of a
 *   passed deadline;</li>
 *   <li>the names in use ({@link NameTable}), who this registry is ({@link Presence}), its threads
 *   ({@link EngineRuntime}) and how it calls the store ({@link StoreCalls}, {@link Cleanup}) each have one
 *   owner, wired once in the registry's {@link Engine}, which knows nothing of the handles.</li>
 * </ul>
 */
public abstract class StoreLockRegistry implements LockRegistry, AutoCloseable {

    private final Engine engine;
    private final Acquirer acquirer;

    protected StoreLockRegistry(LockStore store, LockRegistryBuilder<?> settings) {
        this.engine = new Engine(store, new EngineSettings(settings.defaultLease(), settings.maxPollIntervalMillis(),
                settings.listeners(), settings.runtime(), settings.applicationName()));
        this.acquirer = new Acquirer(this);
    }

    @Override
    public FencedLock obtain(String name, Lease lease, String label) {
        return new StoreLock(this, LockNames.validate(name), Objects.requireNonNull(lease, "lease"), label, Claim.LOCK);
    }

    @Override
    public FencedLock obtainAll(Collection<String> names, Lease lease, String label) {
        return StoreNamesLock.of(this, names, lease, label);
    }

    /**
     * The semaphore {@code name} with {@code permits} permits, if the store offers semaphores.
     *
     * @throws UnsupportedOperationException naming the store, if it offers none
     */
    @Override
    public LeasedSemaphore semaphore(String name, int permits, Lease lease, String label) {
        LockNames.validate(name);
        Objects.requireNonNull(lease, "lease");
        if (permits < 1) {
            throw new IllegalArgumentException("Semaphore '" + name + "' must have at least 1 permit, not " + permits);
        }
        engine.checkPermitsOffered("Semaphore '" + name + "'");
        return new StoreSemaphore(this, name, permits, lease, label);
    }

    /**
     * The read-write lock {@code name}, if the store offers counted claims (as for semaphores).
     *
     * @throws UnsupportedOperationException naming the store, if it offers none
     */
    @Override
    public FencedReadWriteLock readWriteLock(String name, Lease lease, String label) {
        LockNames.validate(name);
        Objects.requireNonNull(lease, "lease");
        engine.checkPermitsOffered("Read-write lock '" + name + "'");
        return new StoreReadWriteLock(new StoreLock(this, name, lease, label, Claim.READ),
                new StoreLock(this, name, lease, label, Claim.WRITE));
    }

    @Override
    public List<HeldLock> heldLocks() {
        List<HeldLock> held = new ArrayList<>();
        for (Hold hold : engine.names().holds()) {
            if (hold.isHeld()) {
                Duration lease = StoreSends.await(() -> engine.leases().remainingLease(hold,
                        engine.holds().blocking()));
                held.add(new HeldLock(hold.name, hold.label, hold.fencingToken, hold.acquiredAt(), lease,
                        hold.renewed));
            }
        }
        return held;
    }

    @Override
    public LockInfo inspect(String name) {
        return engine.presence().inspect(LockNames.validate(name));
    }

    /**
     * Asks the store ({@link ForcedRelease}); throws {@link UnsupportedOperationException} if the store offers no
     * forced release.
     */
    @Override
    public boolean forceRelease(String name, long fencingToken) {
        String checked = LockNames.validate(name);
        ForcedRelease forced = engine.capabilities().forcedRelease().orElseThrow(
                () -> new UnsupportedOperationException(engine.store().getClass().getSimpleName()
                        + " cannot force a release"));
        return StoreCalls.call(checked, "force the release", () -> forced.forceRelease(checked, fencingToken));
    }

    /** Who this registry is, as it announces itself to other processes' {@link #inspect}. */
    public LockHolder identity() {
        return engine.presence().identity();
    }

    /** The lease a {@link Lease#renewed()} hold gets. */
    public Duration getDefaultLease() {
        return engine.defaultLease();
    }

    /**
     * Withdraws the calls still waiting (they leave the store's queue and fail with
     * {@link IllegalStateException}), gives back the holds still open (released in the store, so that another process
     * gets them at once; their owners find them lost, with a {@link dev.distlock.core.LockLostException} from
     * {@code unlock()}), stops renewing and frees the backend resources: within five seconds on the registry's
     * runtime (a release not answered by then leaves its lock to expire with its lease). Idempotent.
     */
    @Override
    public void close() {
        engine.closing().close();
    }

    /**
     * {@link #close()} without waiting: the stage completes once the waiting calls withdrew and the holds were given
     * back (at most five seconds on the registry's runtime) and the backend resources are freed.
     */
    public CompletionStage<Void> closeAsync() {
        return engine.closing().closeAsync();
    }

    // --- used by the handles ---

    /** The current thread's hold of {@code name} (it may have been lost), or {@code null}. */
    Hold ownHoldOrNull(String name) {
        return engine.names().heldBy(name, Thread.currentThread());
    }

    Engine engine() {
        return engine;
    }

    Acquirer acquirer() {
        return acquirer;
    }

    /** Number of names this registry keeps state for: those held or waited for right now (for leak checks). */
    protected final int namesInUse() {
        return engine.names().size();
    }

    /**
     * Whether {@code thread} holds {@code name} through this registry and no loss has been detected: what
     * {@link FencedLock#isHeldByCurrentThread()} tells that thread (for oracles that judge several threads).
     */
    protected final boolean isHeldBy(String name, Thread thread) {
        Hold hold = engine.names().heldBy(name, thread);
        return hold != null && hold.isHeld();
    }
}
