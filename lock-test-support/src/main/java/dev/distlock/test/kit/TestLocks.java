package dev.distlock.test.kit;

import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.memory.InMemoryLockStore;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;

/**
 * Locks for testing an application's locking code: an in-memory store whose leases run on a {@link TestClock},
 * registries on it (each one a "process"), and ways to make things happen now: time passes, a hold expires or is
 * taken by someone else, a store call fails. A {@link Journal} records guarded sections for assertions.
 *
 * <pre>{@code
 * TestLocks locks = new TestLocks();
 * LockRegistry registry = locks.registry();
 * FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofSeconds(30)));
 * lock.lock();
 * locks.advance(Duration.ofSeconds(31));   // the lease ran out
 * }</pre>
 */
public final class TestLocks implements AutoCloseable {

    private final TestClock clock;
    private final InMemoryLockStore store;
    private final FaultyLockStore faulty;
    private final Journal journal;
    private final List<LockRegistry> processes = new CopyOnWriteArrayList<>();
    private volatile LockRegistry registry;

    /** A store and a clock of their own. */
    public TestLocks() {
        this(new TestClock());
    }

    /** A store on {@code clock}. */
    public TestLocks(TestClock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.store = new InMemoryLockStore(clock.asClock(), Duration.ofDays(1));
        this.faulty = new FaultyLockStore(store);
        this.journal = new Journal(name -> store.inspect(name).fencingToken());
    }

    /** The clock every lease and every registry of this kit runs on. */
    public TestClock clock() {
        return clock;
    }

    /** The store behind every registry of this kit. */
    public InMemoryLockStore store() {
        return store;
    }

    /** The registry of this kit's first process, made on first use. */
    public LockRegistry registry() {
        LockRegistry made = registry;
        if (made == null) {
            synchronized (this) {
                if (registry == null) {
                    registry = newProcess();
                }
                made = registry;
            }
        }
        return made;
    }

    /** A new registry on this kit's store and clock: another process, which its locks exclude. */
    public LockRegistry newProcess() {
        return newProcess(builder -> { });
    }

    /** A new registry as {@link #newProcess()}, with settings (a listener, a default lease...) made by {@code settings}. */
    public LockRegistry newProcess(Consumer<LockRegistryBuilder<?>> settings) {
        ScriptedLockRegistry.Builder builder = ScriptedLockRegistry.on(faulty).runtime(clock);
        settings.accept(builder);
        LockRegistry made = builder.runtime(clock).build();
        processes.add(made);
        return made;
    }

    /** Moves time forward: see {@link TestClock#advance}. */
    public void advance(Duration duration) {
        clock.advance(duration);
    }

    /**
     * Ends the hold of {@code name} as a lease that ran out would: the store forgets it, nobody is told, and its
     * holder finds out at its next renewal, extension or release (which throws
     * {@link dev.distlock.core.LockLostException}). Time does not move.
     *
     * @return whether {@code name} was held
     */
    public boolean expire(String name) {
        boolean held = store.isLocked(name);
        store.delete(name);
        return held;
    }

    /**
     * Gives {@code name} to another owner now, as if the hold had expired and another process had taken the lock;
     * that owner keeps it until {@link #releaseAll()} or {@link #reset()}.
     *
     * @return the new owner's fencing token
     */
    public long lose(String name) {
        store.delete(name);
        AcquireResult taken = store.tryAcquire(name, "test-locks-other-" + UUID.randomUUID(),
                Lease.MAX.toMillis(), false, 0);
        LockSnapshot now = store.inspect(name);
        if (now.ownerToken() == null) {
            throw new IllegalStateException("could not take " + name + ": " + taken);
        }
        return now.fencingToken();
    }

    /** Makes the next {@code op} call on {@code name}, by any process of this kit, throw {@code failure}. */
    public void failNext(StoreOp op, String name, RuntimeException failure) {
        faulty.failNext(op, name, failure);
    }

    /** Whether anyone holds {@code name} now, as the store sees it. */
    public boolean isHeld(String name) {
        return store.isLocked(name);
    }

    /** The journal of guarded sections. */
    public Journal journal() {
        return journal;
    }

    /** Frees every lock in the store, without telling the holders (their next renewal or release finds it lost). */
    public void releaseAll() {
        for (String name : store.heldNames()) {
            store.delete(name);
        }
    }

    /** Between tests: frees every lock, forgets the faults not met yet and the journal. Time goes on. */
    public void reset() {
        releaseAll();
        faulty.clearFaults();
        journal.clear();
    }

    /**
     * Asserts that nobody holds any lock.
     *
     * @throws AssertionError naming the locks held
     */
    public void assertNothingHeld() {
        List<String> held = store.heldNames();
        if (!held.isEmpty()) {
            throw new AssertionError("locks still held: " + held);
        }
    }

    /** See {@link Journal#assertNeverOverlapped}. */
    public void assertNeverOverlapped(String name) {
        journal.assertNeverOverlapped(name);
    }

    /** See {@link Journal#assertRanUnderLock}. */
    public void assertRanUnderLock(String name) {
        journal.assertRanUnderLock(name);
    }

    /** Closes every registry this kit made. */
    @Override
    public void close() {
        for (LockRegistry process : processes) {
            if (process instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (Exception ex) {
                    throw new IllegalStateException("could not close a registry", ex);
                }
            }
        }
        processes.clear();
        registry = null;
    }
}
