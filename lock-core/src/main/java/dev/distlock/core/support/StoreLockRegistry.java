package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockHolder;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A {@link LockRegistry} on a {@link LockStore}: everything a lock does beyond single atomic backend
 * operations lives here, once for every backend.
 *
 * <ul>
 *   <li>threads of this registry queue locally per name, so at most one of them talks to the backend;</li>
 *   <li>re-entrant holds are counted locally and cost no backend call;</li>
 *   <li>waiters queue in the store and are handed the lock by the release before them, with a bounded,
 *   jittered poll as a fallback;</li>
 *   <li>every hold is trusted only until a local deadline derived from its last confirmed lease; the
 *   {@link Watchdog} renews leases concurrently and reports a hold lost the moment its deadline passes;</li>
 *   <li>whatever a failed, timed-out or interrupted call may have left in the store is cleaned up in the
 *   background ({@link Cleanup}).</li>
 * </ul>
 */
public abstract class StoreLockRegistry implements LockRegistry, AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(StoreLockRegistry.class);

    /** How long {@link #close()} gives waiting calls to leave the store's queue. */
    private static final long CLOSE_WAIT_MILLIS = 5000;
    /**
     * How many times a release is sent while the store refuses it transiently (the command did not run); any other
     * failure leaves it to the background clean-up at once, so that {@code unlock()} waits for one command at most.
     */
    private static final int RELEASE_ATTEMPTS = 3;
    /** How long an announcement lives in the store; it is renewed every third of it while the registry is open. */
    private static final long ANNOUNCEMENT_TTL_MILLIS = 60_000;

    private final LockStore store;
    private final Duration defaultLease;
    private final long maxPollMillis;
    private final long waiterTimeoutMillis;
    private final Listeners listeners;
    private final HoldTokens tokens = new HoldTokens();
    private final ConcurrentHashMap<String, NameState> states = new ConcurrentHashMap<>();
    private final Set<Acquisition> waiting = ConcurrentHashMap.newKeySet();
    private final BackgroundThreads threads = new BackgroundThreads();
    private final Watchdog watchdog;
    private final Cleanup cleanup;
    private final String application;
    private final Instant createdAt = Instant.now();
    private final AtomicBoolean announcing = new AtomicBoolean();
    private volatile LockHolder identity;
    private final AtomicBoolean closed = new AtomicBoolean();

    protected StoreLockRegistry(LockStore store, Builder<?> settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.defaultLease = settings.defaultLease;
        this.maxPollMillis = settings.maxPollInterval.toMillis();
        this.waiterTimeoutMillis = HoldClock.waiterTimeoutMillis(maxPollMillis);
        this.listeners = new Listeners(settings.listeners);
        this.watchdog = new Watchdog(store, listeners, this::lose, threads);
        this.cleanup = new Cleanup(store, threads.timer(), threads.calls());
        this.application = settings.applicationName;
    }

    @Override
    public FencedLock obtain(String name, Lease lease, String label) {
        return new StoreLock(this, LockNames.validate(name), Objects.requireNonNull(lease, "lease"), label);
    }

    @Override
    public List<HeldLock> heldLocks() {
        List<HeldLock> held = new ArrayList<>();
        for (NameState state : states.values()) {
            for (Hold hold : state.holds) {
                if (hold.isHeld()) {
                    held.add(new HeldLock(hold.name, hold.label, hold.fencingToken, hold.acquiredAt,
                            remainingLease(hold), hold.renewed));
                }
            }
        }
        return held;
    }

    @Override
    public LockInfo inspect(String name) {
        LockNames.validate(name);
        LockSnapshot snapshot = backend(name, "inspect the lock", () -> uninterrupted(() -> store.inspect(name)));
        if (snapshot.ownerToken() == null) {
            return new LockInfo(name, false, null, 0, null, Duration.ZERO, snapshot.waiting());
        }
        String instance = HoldTokens.instanceOf(snapshot.ownerToken());
        LockHolder holder = instance.equals(tokens.instance()) ? identity()
                : Announcement.fromMap(instance, backend(name, "read who holds the lock",
                        () -> uninterrupted(() -> store.announcement(instance))));
        long fence = snapshot.fencingToken();
        return new LockInfo(name, true, holder, fence, fence > 0 ? Instant.EPOCH.plus(fence, ChronoUnit.MICROS) : null,
                snapshot.remainingLeaseMillis() < 0 ? null : Duration.ofMillis(snapshot.remainingLeaseMillis()),
                snapshot.waiting());
    }

    /** Who this registry is, as it announces itself to other processes' {@link #inspect}. */
    public LockHolder identity() {
        LockHolder self = identity;
        if (self == null) {
            self = Announcement.of(tokens.instance(), application, createdAt);
            identity = self;
        }
        return self;
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
        if (!closed.compareAndSet(false, true)) {
            return; // closed before (or closing now)
        }
        for (NameState state : states.values()) {
            // let calls waiting at a gate through, to find the registry closed
            state.gate.openForClose();
        }
        waiting.forEach(Acquisition::wakeForClose);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(CLOSE_WAIT_MILLIS);
        synchronized (waiting) {
            while (!waiting.isEmpty() && System.nanoTime() - deadline < 0) {
                try {
                    waiting.wait(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    break;
                }
            }
        }
        threads.close();
        store.close();
    }

    // --- used by StoreLock and StoreDetachedLock ---

    /**
     * Acquires {@code name} for the current thread.
     *
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt ends the wait with {@link InterruptedException}; if not,
     *        the interrupt flag is set again on return
     */
    boolean acquire(String name, Lease lease, String label, long waitNanos, boolean interruptible)
            throws InterruptedException {
        checkOpen(name);
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock '" + name + "'");
        }
        NameState state = retain(name);
        Hold current = state.heldBy(Thread.currentThread());
        if (current != null) {
            try {
                // re-entry counts only on a hold that is still valid
                if (!current.isHeld()) {
                    lose(current, current.expiryReason());
                    throw new LockLostException(name, current.lostReason());
                }
                current.count++;
                return true;
            } finally {
                release(state, name);
            }
        }
        StepRunners.CallerSteps steps = new StepRunners.CallerSteps(threads.calls());
        LockRequest request = new LockRequest(state, name, label, lease.durationOr(defaultLease).toMillis(),
                lease.isRenewed());
        Acquisition acquisition = new Acquisition(this, request, waitNanos, interruptible, steps);
        CompletableFuture<Hold> result = acquisition.start();
        steps.await(result::isDone, acquisition::interrupt);
        if (acquisition.wasInterrupted()) {
            Thread.currentThread().interrupt();
        }
        Hold hold;
        try {
            hold = result.getNow(null);
        } catch (CompletionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof InterruptedException interrupt) {
                throw interrupt;
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw failed;
        }
        if (hold == null) {
            return false;
        }
        hold.owner = Thread.currentThread();
        return true;
    }

    /**
     * Acquires {@code name} for no thread: the future completes with the hold, or {@code null} if the wait ran out.
     * Cancelling it withdraws the acquisition; a hold made meanwhile is released.
     */
    CompletableFuture<DetachedLock> acquireAsync(String name, Lease lease, String label, long waitNanos) {
        if (closed.get()) {
            return CompletableFuture.failedFuture(new IllegalStateException("Lock '" + name
                    + "' cannot be acquired: its registry is closed"));
        }
        LockRequest request = new LockRequest(retain(name), name, label, lease.durationOr(defaultLease).toMillis(),
                lease.isRenewed());
        Acquisition acquisition = new Acquisition(this, request, waitNanos, true,
                new StepRunners.Serial(threads.steps()));
        CompletableFuture<DetachedLock> handle = new CompletableFuture<>();
        acquisition.start().whenComplete((hold, error) -> {
            if (error != null) {
                handle.completeExceptionally(error);
            } else if (!handle.complete(hold != null ? new StoreDetachedLock(this, hold) : null) && hold != null) {
                abandon(hold); // the caller gave up meanwhile
            }
        });
        handle.whenComplete((hold, error) -> {
            if (handle.isCancelled()) {
                acquisition.cancel();
            }
        });
        return handle;
    }

    /** Runs a blocking operation of a hold on the registry's background steps, for a non-blocking caller. */
    <T> CompletableFuture<T> inBackground(Supplier<T> operation) {
        try {
            return CompletableFuture.supplyAsync(operation, threads.steps());
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("The lock registry is closed", closed));
        }
    }

    /**
     * An acquisition ended: with {@code hold}, which from now on is watched and counted among this registry's
     * holds; or without ({@code null}), and its name's state is no longer kept for it.
     */
    void settle(Acquisition acquisition, LockRequest request, Hold hold) {
        if (hold == null) {
            release(request.state(), request.name());
            return;
        }
        NameState state = request.state();
        state.holds.add(hold);
        announceFromNowOn();
        // listeners hear of the hold before the watchdog can report it lost
        listeners.acquired(new LockEvent(hold.name, hold.label, hold.fencingToken, acquisition.waited(), null));
        watchdog.watch(hold);
    }

    /** A hold made for a caller that gave up meanwhile: released in the background. */
    private void abandon(Hold hold) {
        try {
            threads.calls().execute(() -> {
                try {
                    release(hold, 0);
                } catch (RuntimeException failure) {
                    log.debug("Releasing lock '{}' for a caller that gave up failed", hold.name, failure);
                }
            });
        } catch (RejectedExecutionException closed) {
            log.debug("Registry closed: lock '{}' is left to expire with its lease", hold.name);
        }
    }

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
        NameState state = states.get(name);
        return state != null ? state.heldBy(Thread.currentThread()) : null;
    }

    /**
     * Ends the hold: locally at once (no renewal runs from now on, the next local waiter may go), and in the
     * backend by a release or, for a positive {@code delayMillis}, by leaving the lock to expire after that
     * long.
     *
     * @throws LockLostException if the hold was lost (before, or as the release found)
     * @throws LockBackendException if the backend failed; a release is then retried in the background
     */
    void release(Hold hold, long delayMillis) {
        boolean active = hold.end();
        watchdog.unwatch(hold);
        try {
            if (!active) {
                throw new LockLostException(hold.name, hold.lostReason());
            }
            if (hold.isPastDeadline(System.nanoTime())) {
                reportLoss(hold, hold.expiryReason());
                cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), false);
                throw new LockLostException(hold.name, hold.expiryReason());
            }
            boolean released;
            try {
                released = retriedWhileRefused(() -> delayMillis > 0
                        ? store.extend(hold.name, hold.token, delayMillis)
                        : store.release(hold.name, hold.token));
            } catch (RuntimeException failure) {
                listeners.releaseFailed(hold.event(failure));
                if (delayMillis > 0) {
                    throw new LockBackendException(hold.name, "leave the lock to expire after "
                            + Duration.ofMillis(delayMillis) + " (it expires with its lease at the latest)", failure);
                }
                // it may have run: the background clean-up finishes it, and never reports a loss
                cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), true);
                throw new LockBackendException(hold.name, "release (it is retried in the background; the lock "
                        + "expires with its lease at the latest)", failure);
            }
            if (!released) {
                String reason = "the release found that Redis no longer holds it under this hold's token";
                reportLoss(hold, reason);
                throw new LockLostException(hold.name, reason);
            }
            listeners.released(hold.event(null));
        } finally {
            hold.giveBackGate();
            hold.state.holds.remove(hold);
            release(hold.state, hold.name);
        }
    }

    /** Sets the hold's lease to {@code lease} from now; renewals and the local deadline follow it. */
    void extend(Hold hold, Duration lease) {
        long leaseMillis = Lease.checkedMillis(lease, "Lock '" + hold.name + "': the lease", hold.renewed);
        requireHeld(hold);
        long sent = System.nanoTime();
        boolean owned;
        try {
            owned = backend(hold.name, "extend the lease",
                    () -> uninterrupted(() -> store.extend(hold.name, hold.token, leaseMillis)));
        } catch (LockBackendException failure) {
            // the extend may have run (a lost reply, replicas short of acknowledging it): trust the shorter lease
            hold.leaseMaybeSet(sent, leaseMillis);
            watchdog.watch(hold);
            throw failure;
        }
        if (!owned) {
            String reason = "extend found that Redis no longer holds it under this hold's token";
            lose(hold, reason);
            throw new LockLostException(hold.name, reason);
        }
        if (!hold.leaseSet(sent, leaseMillis)) {
            throw new LockLostException(hold.name, hold.lostReason());
        }
        watchdog.watch(hold);
    }

    /** The hold's remaining lease as the backend sees it, at most until the local deadline; zero if it is lost. */
    Duration remainingLease(Hold hold) {
        if (!hold.isHeld()) {
            if (hold.isActive()) {
                lose(hold, hold.expiryReason());
            }
            return Duration.ZERO;
        }
        long millis = backend(hold.name, "read the remaining lease",
                () -> uninterrupted(() -> store.remainingLeaseMillis(hold.name, hold.token)));
        if (millis < 0) {
            lose(hold, "reading its lease found that Redis no longer holds it under this hold's token");
            return Duration.ZERO;
        }
        long localMillis = TimeUnit.NANOSECONDS.toMillis(hold.validUntilNanos() - System.nanoTime());
        return Duration.ofMillis(Math.max(0, Math.min(millis, localMillis)));
    }

    boolean isLocked(String name) {
        return backend(name, "check the lock", () -> uninterrupted(() -> store.isLocked(name)));
    }

    // --- used by Acquisition ---

    LockStore store() {
        return store;
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
        return cleanup;
    }

    ScheduledExecutorService timer() {
        return threads.timer();
    }

    boolean isClosed() {
        return closed.get();
    }

    void checkOpen(String name) {
        if (closed.get()) {
            throw new IllegalStateException("Lock '" + name + "' cannot be acquired: its registry is closed");
        }
    }

    void waiting(Acquisition waiter) {
        waiting.add(waiter);
    }

    void doneWaiting(Acquisition waiter) {
        waiting.remove(waiter);
        if (closed.get()) {
            synchronized (waiting) {
                waiting.notifyAll();
            }
        }
    }

    // --- internals ---

    /** From the first hold on, keeps this registry's announcement alive in the store, in the background. */
    private void announceFromNowOn() {
        if (announcing.get() || !announcing.compareAndSet(false, true)) {
            return;
        }
        try {
            threads.timer().scheduleAtFixedRate(() -> threads.calls().execute(this::announce), 0,
                    ANNOUNCEMENT_TTL_MILLIS / 3, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            // the registry is closing
        }
    }

    private void announce() {
        try {
            store.announce(tokens.instance(), Announcement.toMap(identity()), ANNOUNCEMENT_TTL_MILLIS);
        } catch (RuntimeException failure) {
            log.debug("Announcing this registry failed; trying again later", failure);
        }
    }

    /**
     * The hold is lost: reported once, the local gate given back so other threads may go to the backend,
     * and its key released in the background in case it is still there.
     */
    private void lose(Hold hold, String reason) {
        if (!hold.markLost(reason)) {
            return;
        }
        watchdog.unwatch(hold);
        reportLoss(hold, reason);
        hold.giveBackGate();
        cleanup.abandon(hold.name, hold.token, hold.leaseMillis(), false);
    }

    private void reportLoss(Hold hold, String reason) {
        listeners.lost(hold.event(new LockLostException(hold.name, reason)));
    }

    private void requireHeld(Hold hold) {
        if (!hold.isHeld()) {
            if (hold.isActive()) {
                lose(hold, hold.expiryReason());
            }
            throw new LockLostException(hold.name, hold.lostReason());
        }
    }

    private NameState retain(String name) {
        return states.compute(name, (key, state) -> {
            NameState retained = state != null ? state : new NameState();
            retained.users++;
            return retained;
        });
    }

    private void release(NameState state, String name) {
        states.computeIfPresent(name, (key, current) -> current == state && --current.users == 0 ? null : current);
    }

    /** Number of names this registry keeps state for: those held or waited for right now. */
    int trackedNames() {
        return states.size();
    }

    static <T> T backend(String name, String operation, Supplier<T> call) {
        try {
            return call.get();
        } catch (RuntimeException failure) {
            throw new LockBackendException(name, operation, failure);
        }
    }

    /**
     * Runs a backend call, sending it twice more within about 150 ms while the store refuses it transiently (a
     * slot moving, a failover): the command did not run, so its answer comes fast and a retry cannot double it.
     * The interrupt flag is cleared meanwhile and restored after.
     */
    private <T> T retriedWhileRefused(Supplier<T> call) {
        return uninterrupted(() -> {
            for (int attempt = 1; ; attempt++) {
                try {
                    return call.get();
                } catch (RuntimeException failure) {
                    if (attempt == RELEASE_ATTEMPTS || !store.wasRefused(failure)) {
                        throw failure;
                    }
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50L * attempt));
                }
            }
        });
    }

    /**
     * Runs a backend call with the interrupt flag cleared, then restores it: an interrupted thread must
     * still be able to release its lock in a {@code finally} block.
     */
    static <T> T uninterrupted(Supplier<T> call) {
        boolean interrupted = Thread.interrupted();
        try {
            return call.get();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Settings every registry shares; backends extend it with their own.
     *
     * @param <B> the concrete builder
     */
    public abstract static class Builder<B extends Builder<B>> {

        /** The longest poll interval accepted: an hour. */
        public static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

        private Duration defaultLease = Duration.ofSeconds(30);
        private Duration maxPollInterval = Duration.ofMillis(500);
        private String applicationName;
        private final List<LockListener> listeners = new ArrayList<>();

        /**
         * The lease of holds obtained with {@link Lease#renewed()} (default 30s); the watchdog renews it
         * every third of its length. A crashed holder blocks others for at most this long. Between
         * {@link Lease#MIN_RENEWED} and {@link Lease#MAX}.
         */
        public B defaultLease(Duration lease) {
            Lease.checkedMillis(lease, "defaultLease", true);
            this.defaultLease = lease;
            return self();
        }

        /**
         * The longest a waiter sleeps before asking the backend again when no hand-off notice arrives
         * (default 500ms, at most an hour). Notices normally wake waiters at once; this bounds the delay when
         * one is lost. Waiters also wake when the holder's lease runs out. A waiter's place in the queue lives
         * this long plus as much again (at least 500ms) after its last visit, which bounds how long a waiter
         * that died blocks the lock: about twice that (2 seconds by default).
         */
        public B maxPollInterval(Duration interval) {
            Objects.requireNonNull(interval, "maxPollInterval");
            if (interval.toMillis() < 1 || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
                throw new IllegalArgumentException("maxPollInterval must be between 1ms and 1 hour, got " + interval);
            }
            this.maxPollInterval = interval;
            return self();
        }

        /** The configured {@link #maxPollInterval(Duration)} in milliseconds. */
        protected long maxPollIntervalMillis() {
            return maxPollInterval.toMillis();
        }

        /**
         * The name of the application this registry runs in (with Spring Boot, {@code spring.application.name}),
         * shown to operators who ask any process who holds a lock ({@link LockRegistry#inspect}); optional.
         */
        public B applicationName(String name) {
            this.applicationName = name;
            return self();
        }

        /** Adds a listener told of acquisitions, releases, losses and failures. */
        public B listener(LockListener listener) {
            this.listeners.add(Objects.requireNonNull(listener, "listener"));
            return self();
        }

        @SuppressWarnings("unchecked")
        private B self() {
            return (B) this;
        }
    }
}
