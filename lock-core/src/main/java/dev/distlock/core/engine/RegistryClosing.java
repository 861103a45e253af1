package dev.distlock.core.engine;

import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldLifecycle;
import dev.distlock.core.engine.hold.NameTable;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.LockStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a registry closes, once: no new call from then on; the calls waiting at a gate or in the store's queue
 * withdrawn (they leave the queue and fail with {@link IllegalStateException}); every hold still held given back
 * ({@link HoldLifecycle#giveBack}: released in the store, so that the next process proceeds at once, and lost for its
 * owner); all of it for at most {@value #WAIT_MILLIS} ms on the registry's runtime; then its executors and its store
 * closed. A release the store did not answer in time leaves its lock to expire with its lease.
 */
public final class RegistryClosing {

    /** How long closing gives waiting calls to leave the store's queue, and the holds to be released. */
    static final long WAIT_MILLIS = 5000;

    /** What the owner of a hold given back on close is told. */
    static final String CLOSED = "its registry was closed, which gave the lock back";

    private final NameTable names;
    private final Waiters waiters;
    private final HoldLifecycle holds;
    private final EngineRuntime runtime;
    private final LockStore store;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The withdrawal of the waiting calls, once closing began. */
    private final CompletableFuture<CompletableFuture<Void>> withdrawn = new CompletableFuture<>();
    private final AtomicBoolean finished = new AtomicBoolean();

    RegistryClosing(NameTable names, Waiters waiters, HoldLifecycle holds, EngineRuntime runtime, LockStore store) {
        this.names = names;
        this.waiters = waiters;
        this.holds = holds;
        this.runtime = runtime;
        this.store = store;
    }

    boolean isClosed() {
        return closed.get();
    }

    /** Closes, waiting for the withdrawal (uninterruptibly: it is bounded by the runtime's timer). */
    public void close() {
        withdraw().join();
        finish();
    }

    /** Closes without waiting: the stage completes once the executors and the store are closed. */
    public CompletableFuture<Void> closeAsync() {
        return withdraw().thenRun(this::finish);
    }

    /**
     * No new call from now on; the waiting ones withdraw and the holds are given back, side by side (a waiter slow to
     * leave holds up no give-back): completes when both are done, or at the limit.
     */
    private CompletableFuture<Void> withdraw() {
        if (closed.compareAndSet(false, true)) {
            names.openGatesForClose(); // calls waiting at a gate go on, to find the registry closed
            CompletableFuture<Void> done = CompletableFuture.allOf(waiters.withdrawAll(), giveBackAll());
            CompletableFuture<Void> bounded = new CompletableFuture<>();
            done.whenComplete((ended, failure) -> bounded.complete(null));
            runtime.after(TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS), () -> bounded.complete(null));
            withdrawn.complete(bounded);
        }
        return withdrawn.join();
    }

    private CompletableFuture<Void> giveBackAll() {
        List<Hold> held = names.holds();
        CompletableFuture<?>[] releases = new CompletableFuture<?>[held.size()];
        for (int i = 0; i < releases.length; i++) {
            releases[i] = holds.giveBack(held.get(i), CLOSED);
        }
        return CompletableFuture.allOf(releases);
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            runtime.close();
            store.close();
        }
    }
}
