package dev.distlock.core.engine;

import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldLeases;
import dev.distlock.core.engine.hold.HoldLifecycle;
import dev.distlock.core.engine.hold.NameState;
import dev.distlock.core.engine.hold.NameTable;
import dev.distlock.core.engine.hold.TrustedLease;
import dev.distlock.core.engine.hold.Watchdog;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.engine.runtime.WaitTimers;
import dev.distlock.core.engine.store.StoreSends;
import dev.distlock.core.engine.store.TransientRetries;
import dev.distlock.core.engine.store.TryFailures;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.runtime.LockRuntime;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.core.support.StoreLockRegistry;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The one place where the tests of this package build engine objects (holds, leases, the watchdog, a hold's
 * lifecycle), so that a change of their constructors is followed here once. Instants are on the monotonic clock the
 * engine reads ({@link #now()}).
 */
public final class EngineFixtures {

    public static final String NAME = "engine-test";
    public static final long HOUR_NANOS = TimeUnit.HOURS.toNanos(1);
    /**
     * How long a test waits for something that must happen: long enough for a loaded machine, and shorter than the
     * mutation profile's time limit per test, so that a mutant that makes it hang fails an assertion instead.
     */
    public static final long BOUND_SECONDS = 3;

    private EngineFixtures() {
    }

    /** {@code future}'s value, waited for at most {@link #BOUND_SECONDS}; an assertion error names {@code what}. */
    public static <T> T await(java.util.concurrent.CompletionStage<T> future, String what) throws Exception {
        try {
            return future.toCompletableFuture().get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException timeout) {
            throw new AssertionError(what + " did not complete within " + BOUND_SECONDS + " s", timeout);
        }
    }

    /** The failure {@code future} completed with, waited for at most {@link #BOUND_SECONDS}. */
    public static Throwable awaitFailure(java.util.concurrent.CompletionStage<?> future, String what) throws Exception {
        try {
            future.toCompletableFuture().get(BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException failed) {
            return failed.getCause();
        } catch (java.util.concurrent.TimeoutException timeout) {
            throw new AssertionError(what + " did not complete within " + BOUND_SECONDS + " s", timeout);
        }
        throw new AssertionError(what + " completed normally; a failure was expected");
    }

    /** Waits, at most {@link #BOUND_SECONDS}, until {@code condition} holds; an assertion error names it. */
    public static void awaitTrue(java.util.function.BooleanSupplier condition, String what)
            throws InterruptedException {
        long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(BOUND_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - until > 0) {
                throw new AssertionError(what + " did not happen within " + BOUND_SECONDS + " s");
            }
            Thread.sleep(2); // polls a condition nobody signals (the store's state)
        }
    }

    /** The engine's clock now. */
    public static long now() {
        return System.nanoTime();
    }

    /** The runtime of holds built alone (they only read its clock); its threads start only if work is handed over. */
    private static final EngineRuntime STANDALONE = new EngineRuntime(LockRuntime.system());

    /** The system's clock and randomness, and a timer a test can look into ({@link TimerExecutors}). */
    public static final class TimerRuntime implements LockRuntime {

        public final TimerExecutors executors = new TimerExecutors();

        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }

        @Override
        public RandomGenerator random() {
            return java.util.concurrent.ThreadLocalRandom.current();
        }

        @Override
        public EngineExecutors newExecutors() {
            return executors;
        }
    }

    /**
     * An engine's executors whose timer is a {@link ScheduledThreadPoolExecutor} of one thread, so that a test can
     * count the tasks pending on it, see which were cancelled, or keep its thread busy.
     */
    public static final class TimerExecutors implements EngineExecutors {

        public final ScheduledThreadPoolExecutor timer =
                new ScheduledThreadPoolExecutor(1, daemon("engine-test-timer"));
        private final ExecutorService steps = Executors.newFixedThreadPool(2, daemon("engine-test-step"));
        private final ExecutorService calls = Executors.newCachedThreadPool(daemon("engine-test-call"));

        private static java.util.concurrent.ThreadFactory daemon(String name) {
            return task -> {
                Thread thread = new Thread(task, name);
                thread.setDaemon(true);
                return thread;
            };
        }

        @Override
        public Scheduled schedule(Runnable task, long delayNanos) {
            ScheduledFuture<?> future = timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
            return () -> future.cancel(false);
        }

        @Override
        public Executor steps() {
            return steps;
        }

        @Override
        public Executor calls() {
            return calls;
        }

        @Override
        public void close() {
            timer.shutdownNow();
            steps.shutdownNow();
            calls.shutdownNow();
        }
    }

    /** The system's runtime, shared by objects built alone (it starts threads only if work is handed over). */
    public static EngineRuntime standalone() {
        return STANDALONE;
    }

    /** An engine runtime on the system clock whose timer a test can look into ({@code runtime.executors.timer}). */
    public static EngineRuntime timerRuntime(TimerRuntime runtime) {
        return new EngineRuntime(runtime);
    }

    /** A hold of {@link #NAME} on a fresh name state, trusted until {@code validUntilNanos}. */
    public static Hold hold(long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending,
            long nextRenewalNanos) {
        return hold(new NameState(), NAME, "token-1", 1, leaseMillis, renewed, validUntilNanos, confirmPending,
                nextRenewalNanos);
    }

    public static Hold hold(NameState state, String name, String token, long fencingToken, long leaseMillis,
            boolean renewed, long validUntilNanos, boolean confirmPending, long nextRenewalNanos) {
        return hold(STANDALONE, state, name, token, fencingToken, leaseMillis, renewed, validUntilNanos,
                confirmPending, nextRenewalNanos);
    }

    public static Hold hold(EngineRuntime runtime, NameState state, String name, String token, long fencingToken,
            long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending, long nextRenewalNanos) {
        return new Hold(runtime, state, name, null, token, fencingToken, leaseMillis, renewed, validUntilNanos, confirmPending,
                nextRenewalNanos, runtime.nanoTime());
    }

    /** A renewed hold of {@code leaseMillis}, trusted for an hour from now, its renewal due in an hour too. */
    public static Hold heldForAnHour(NameState state, String name, String token, long leaseMillis) {
        long now = now();
        return hold(state, name, token, 1, leaseMillis, true, now + HOUR_NANOS, false, now + HOUR_NANOS);
    }

    /** A registry on {@code store}, built as {@code settings} say. */
    public static TestRegistry registry(LockStore store, RegistrySettings settings) {
        return new TestRegistry(store, settings);
    }

    /** A registry's settings: poll interval, listeners and so on. */
    public static RegistrySettings settings() {
        return new RegistrySettings();
    }

    /** Settings for {@link #registry}. */
    public static final class RegistrySettings extends LockRegistryBuilder<RegistrySettings> {
    }

    /** A registry on any store, as the Redis and in-memory registries are. */
    public static final class TestRegistry extends StoreLockRegistry {

        public TestRegistry(LockStore store, RegistrySettings settings) {
            super(store, settings);
        }
    }

    /** What interrupts and failed tries mean for one acquisition of {@link #NAME}. */
    public static TryFailures tryFailures(LockStore store, boolean interruptible, TransientRetries.Reporter reporter) {
        return new TryFailures(NAME, store.capabilities().failures(), STANDALONE, interruptible, reporter);
    }

    /** Transient-failure retries reported to {@code reporter}, their pauses drawn from the system's randomness. */
    public static TransientRetries transientRetries(TransientRetries.Reporter reporter) {
        return new TransientRetries(STANDALONE, reporter);
    }

    /** The timers of one acquisition that waits {@code waitNanos}, on {@code runtime}'s timer. */
    public static WaitTimers waitTimers(EngineRuntime runtime, long waitNanos) {
        return new WaitTimers(runtime, waitNanos);
    }

    /** The renewal of {@code lease} failed at {@code nowNanos}; the next goes out {@code delayNanos} later. */
    public static int renewalFailed(TrustedLease lease, long nowNanos, long delayNanos) {
        return lease.renewalFailed(nowNanos, delayNanos);
    }

    /**
     * A lease alone, without a hold, whose watchdog looks are recorded (never run), so that a test can read when the
     * next look is planned and whether it was cancelled.
     */
    public static final class RecordedLease extends TrustedLease {

        /** Reads the clock for {@link #planNextLook()}; it sends nothing and schedules nothing. */
        private final Watchdog clock = new Watchdog(null, null, null, STANDALONE);
        public final List<Look> looks = new CopyOnWriteArrayList<>();
        public volatile boolean active = true;

        public RecordedLease(long leaseMillis, boolean renewed, long validUntilNanos, boolean confirmPending,
                long nextRenewalNanos) {
            super(leaseMillis, renewed, validUntilNanos, confirmPending, nextRenewalNanos);
        }

        @Override
        protected boolean isActive() {
            return active;
        }

        @Override
        protected EngineExecutors.Scheduled scheduleLook(Watchdog watchdog, long delayNanos) {
            Look look = new Look(System.nanoTime() + delayNanos);
            looks.add(look);
            return look;
        }

        /** Plans the next look (recorded, not scheduled). */
        public void planNextLook() {
            planNextLook(clock);
        }

        public Look lastLook() {
            return looks.get(looks.size() - 1);
        }
    }

    /** A look planned for {@code atNanos}, perhaps cancelled since. */
    public static final class Look implements EngineExecutors.Scheduled {

        private final long atNanos;
        private volatile boolean cancelled;

        Look(long atNanos) {
            this.atNanos = atNanos;
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        public boolean isCancelled() {
            return cancelled;
        }

        /** How long from now until the look, as {@link Delayed#getDelay}. */
        public long getDelay(TimeUnit unit) {
            return unit.convert(atNanos - System.nanoTime(), TimeUnit.NANOSECONDS);
        }
    }

    /** What the listeners of an {@link Engine} heard, in order: "acquired", "lost", "released" and so on. */
    public static final class Heard implements LockListener {

        public final List<String> kinds = new CopyOnWriteArrayList<>();
        public final List<LockEvent> events = new CopyOnWriteArrayList<>();

        private void heard(String kind, LockEvent event) {
            kinds.add(kind);
            events.add(event);
        }

        @Override
        public void onAcquired(LockEvent event) {
            heard("acquired", event);
        }

        @Override
        public void onReleased(LockEvent event) {
            heard("released", event);
        }

        @Override
        public void onLost(LockEvent event) {
            heard("lost", event);
        }

        @Override
        public void onRenewalFailed(LockEvent event) {
            heard("renewalFailed", event);
        }

        @Override
        public void onReleaseFailed(LockEvent event) {
            heard("releaseFailed", event);
        }
    }

    /** A hold's lifecycle and leases on {@code store}, with their own threads (closed with the engine). */
    public static Engine engine(LockStore store) {
        return new Engine(store);
    }

    /** The parts of the engine that act on a hold once it is acquired. */
    public static final class Engine implements AutoCloseable {

        public final LockStore store;
        final TimerRuntime system = new TimerRuntime();
        public final EngineRuntime runtime = new EngineRuntime(system);

        {
            system.executors.timer.setRemoveOnCancelPolicy(true); // its queue counts the looks pending
        }
        public final AsyncLockStore sends;
        public final NameTable names = new NameTable();
        public final Heard heard = new Heard();
        final Listeners listeners = new Listeners(List.of(heard));
        public final HoldLifecycle holds;
        public final HoldLeases leases;

        private Engine(LockStore store) {
            this.store = store;
            this.sends = AsyncLockStore.on(store, runtime.calls());
            this.holds = new HoldLifecycle(store.capabilities(), sends, AsyncLockStore.onCallingThread(store), names, listeners,
                    runtime, 1_000);
            this.leases = new HoldLeases(holds);
        }

        /** A watchdog on this engine's threads whose losses go to {@code losses}. */
        public Watchdog watchdog(Watchdog.Losses losses) {
            return new Watchdog(sends, listeners, losses, runtime);
        }

        /** The engine's timer, to count or inspect its pending tasks. */
        public ScheduledThreadPoolExecutor timer() {
            return system.executors.timer;
        }

        /** Extends {@code hold} to {@code lease} as a blocking caller does. */
        public void extend(Hold hold, java.time.Duration lease) {
            StoreSends.await(() -> leases.extend(hold, lease, holds.blocking()));
        }

        /** {@code hold}'s remaining lease, read as a blocking caller does. */
        public java.time.Duration remainingLease(Hold hold) {
            return StoreSends.await(() -> leases.remainingLease(hold, holds.blocking()));
        }

        /** Verifies {@code hold} as a blocking caller does. */
        public void verify(Hold hold) {
            StoreSends.await(() -> leases.verify(hold, holds.blocking()));
        }

        /**
         * A renewed hold of {@code name} that {@code token} took in the store, trusted for an hour, its state retained
         * in this engine's name table and its gate owned.
         */
        public Hold acquired(String name, String token, long leaseMillis) {
            long now = now();
            return acquired(name, token, leaseMillis, now + HOUR_NANOS);
        }

        /** As {@link #acquired(String, String, long)}, the hold trusted until {@code validUntilNanos}. */
        public Hold acquired(String name, String token, long leaseMillis, long validUntilNanos) {
            AcquireResult taken = store.tryAcquire(name, token, leaseMillis, false, 1_000);
            if (!taken.acquired()) {
                throw new IllegalStateException("'" + name + "' is held already");
            }
            NameState state = names.retain(name);
            state.gate.enter(null);
            Hold hold = hold(runtime, state, name, token, taken.fencingToken(), leaseMillis, true, validUntilNanos, false, now() + HOUR_NANOS);
            state.add(hold);
            return hold;
        }

        @Override
        public void close() {
            runtime.close();
        }
    }
}
