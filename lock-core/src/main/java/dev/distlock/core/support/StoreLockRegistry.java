package dev.distlock.core.support;

import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A {@link LockRegistry} on a {@link LockStore}: everything a lock does beyond single atomic backend
 * operations lives here, once for every backend.
 *
 * <ul>
 *   <li>threads of this registry queue locally per name, so at most one of them talks to the backend;</li>
 *   <li>re-entrant holds are counted locally and cost no backend call;</li>
 *   <li>waiters queue in the store and sleep until a release hands them the lock, with a bounded, jittered
 *   poll as a fallback;</li>
 *   <li>one scheduler thread renews every renewed lease each third of the lease;</li>
 *   <li>a renewal, extend or release that finds the hold gone marks it lost and tells the listeners.</li>
 * </ul>
 */
public abstract class StoreLockRegistry implements LockRegistry, AutoCloseable {

    private final LockStore store;
    private final Duration defaultLease;
    private final long maxPollMillis;
    private final Listeners listeners;
    private final HoldTokens tokens = new HoldTokens();
    private final ConcurrentHashMap<String, NameState> states = new ConcurrentHashMap<>();
    private final ScheduledThreadPoolExecutor watchdog;

    protected StoreLockRegistry(LockStore store, Builder<?> settings) {
        this.store = Objects.requireNonNull(store, "store");
        this.defaultLease = settings.defaultLease;
        this.maxPollMillis = settings.maxPollInterval.toMillis();
        this.listeners = new Listeners(settings.listeners);
        this.watchdog = new ScheduledThreadPoolExecutor(1, runnable -> {
            Thread thread = new Thread(runnable, "distlock-watchdog");
            thread.setDaemon(true);
            return thread;
        });
        this.watchdog.setRemoveOnCancelPolicy(true);
        // the executor wakes its thread whenever a new task becomes the earliest one; a no-op due every
        // second stays ahead of nearly every renewal, so scheduling one for a new hold wakes nobody
        this.watchdog.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS);
    }

    @Override
    public FencedLock obtain(String name, Lease lease, String label) {
        return new StoreLock(this, LockNames.validate(name), Objects.requireNonNull(lease, "lease"), label);
    }

    @Override
    public List<HeldLock> heldLocks() {
        return states.values().stream()
                .map(state -> state.hold)
                .filter(Objects::nonNull)
                .map(hold -> new HeldLock(hold.name, hold.label, hold.fencingToken, hold.acquiredAt,
                        remainingLease(hold), hold.renewed))
                .toList();
    }

    /** The lease a {@link Lease#renewed()} hold gets. */
    public Duration getDefaultLease() {
        return defaultLease;
    }

    /** Stops renewing and frees the backend resources. Holds still open expire with their leases. */
    @Override
    public void close() {
        watchdog.shutdownNow();
        store.close();
    }

    // --- used by StoreLock ---

    /**
     * Acquires {@code name} for the current thread.
     *
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt ends the wait with {@link InterruptedException}; if not,
     *        the interrupt flag is set again on return
     */
    boolean acquire(String name, Lease lease, String label, long waitNanos, boolean interruptible)
            throws InterruptedException {
        if (watchdog.isShutdown()) {
            throw new IllegalStateException("Lock '" + name + "' cannot be acquired: its registry is closed");
        }
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock '" + name + "'");
        }
        NameState state = retain(name);
        boolean holding = false;
        try {
            Hold current = state.hold;
            if (current != null && current.owner == Thread.currentThread()) {
                if (current.isLost()) {
                    throw new LockLostException(name);
                }
                current.count++;
                return true;
            }
            Acquisition acquisition = new Acquisition(this, state, name, label,
                    lease.durationOr(defaultLease).toMillis(), lease.isRenewed(), waitNanos, interruptible);
            Hold hold = acquisition.run();
            if (hold == null) {
                return false;
            }
            holding = true;
            state.hold = hold;
            // listeners hear of the hold before the watchdog can report it lost
            listeners.acquired(new LockEvent(name, label, hold.fencingToken, acquisition.waited(), null));
            if (hold.renewed) {
                long period = Math.max(1, hold.leaseMillis / 3);
                hold.renewWith(watchdog.scheduleWithFixedDelay(() -> renew(hold), period, period,
                        TimeUnit.MILLISECONDS));
            }
            return true;
        } finally {
            if (!holding) {
                release(state, name);
            }
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

    /** The current thread's hold of {@code name}, or {@code null}. */
    Hold ownHoldOrNull(String name) {
        NameState state = states.get(name);
        Hold hold = state != null ? state.hold : null;
        return hold != null && hold.owner == Thread.currentThread() ? hold : null;
    }

    /** Releases the hold in the backend and lets the next local waiter in. */
    void release(Hold hold) {
        releaseAfter(hold, 0);
    }

    /**
     * Ends the hold locally and lets the next local waiter in; in the backend the lock is released, or, for
     * a positive {@code delayMillis}, left to expire after that long.
     */
    void releaseAfter(Hold hold, long delayMillis) {
        boolean lostBefore = hold.finish();
        boolean released;
        try {
            released = !lostBefore && uninterrupted(() -> delayMillis > 0
                    ? store.extend(hold.name, hold.token, delayMillis)
                    : store.release(hold.name, hold.token));
        } catch (RuntimeException failure) {
            listeners.releaseFailed(hold.event(failure));
            throw new LockBackendException(hold.name, "release", failure);
        } finally {
            hold.state.hold = null;
            hold.state.gate.release();
            release(hold.state, hold.name);
        }
        if (!released) {
            reportLost(hold);
            throw new LockLostException(hold.name);
        }
        listeners.released(hold.event(null));
    }

    void extend(Hold hold, Duration lease) {
        Objects.requireNonNull(lease, "lease");
        if (lease.toMillis() < 1) {
            throw new IllegalArgumentException("Lock '" + hold.name + "': a lease must be at least 1ms, got " + lease);
        }
        long leaseMillis = lease.toMillis();
        boolean owned;
        synchronized (hold) {
            if (!hold.isActive()) {
                throw new LockLostException(hold.name);
            }
            owned = backend(hold.name, "extend the lease",
                    () -> uninterrupted(() -> store.extend(hold.name, hold.token, leaseMillis)));
            if (owned) {
                hold.leaseMillis = leaseMillis;
            }
        }
        if (!owned) {
            reportLost(hold);
            throw new LockLostException(hold.name);
        }
    }

    Duration remainingLease(Hold hold) {
        if (hold.isLost()) {
            return Duration.ZERO;
        }
        long millis = backend(hold.name, "read the remaining lease",
                () -> uninterrupted(() -> store.remainingLeaseMillis(hold.name, hold.token)));
        if (millis < 0) {
            reportLost(hold);
            return Duration.ZERO;
        }
        return Duration.ofMillis(millis);
    }

    boolean isLocked(String name) {
        return backend(name, "check the lock", () -> store.isLocked(name));
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

    Listeners listeners() {
        return listeners;
    }

    // --- internals ---

    private void renew(Hold hold) {
        boolean owned;
        synchronized (hold) {
            if (!hold.isActive()) {
                return;
            }
            try {
                owned = store.extend(hold.name, hold.token, hold.leaseMillis);
            } catch (RuntimeException failure) {
                listeners.renewalFailed(hold.event(failure));
                return;
            }
        }
        if (!owned) {
            reportLost(hold);
        }
    }

    private void reportLost(Hold hold) {
        if (hold.markLost()) {
            listeners.lost(hold.event(null));
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

        private Duration defaultLease = Duration.ofSeconds(30);
        private Duration maxPollInterval = Duration.ofMillis(500);
        private final List<LockListener> listeners = new ArrayList<>();

        /**
         * The lease of holds obtained with {@link Lease#renewed()} (default 30s); the watchdog renews it
         * every third of its length. A crashed holder blocks others for at most this long.
         */
        public B defaultLease(Duration lease) {
            Objects.requireNonNull(lease, "defaultLease");
            if (lease.toMillis() < 3) {
                throw new IllegalArgumentException("defaultLease must be at least 3ms so it can be renewed every "
                        + "third of it, got " + lease);
            }
            this.defaultLease = lease;
            return self();
        }

        /**
         * The longest a waiter sleeps before asking the backend again when no release notification
         * arrives (default 500ms). Notifications normally wake waiters at once; this bounds the delay
         * when one is lost. Waiters also wake when the holder's lease runs out.
         */
        public B maxPollInterval(Duration interval) {
            Objects.requireNonNull(interval, "maxPollInterval");
            if (interval.toMillis() < 1) {
                throw new IllegalArgumentException("maxPollInterval must be at least 1ms, got " + interval);
            }
            this.maxPollInterval = interval;
            return self();
        }

        /** The configured {@link #maxPollInterval(Duration)} in milliseconds. */
        protected long maxPollIntervalMillis() {
            return maxPollInterval.toMillis();
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
