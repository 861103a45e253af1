package dev.distlock.core.engine;

import dev.distlock.core.engine.hold.NameTable;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.LockStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * How a registry closes, once: no new call from then on, the calls waiting at a gate or in the store's queue
 * withdrawn (they leave the queue and fail with {@link IllegalStateException}) for at most {@value #WAIT_MILLIS} ms
 * on the registry's runtime, then its executors and its store closed. Holds still open expire with their leases.
 */
public final class RegistryClosing {

    /** How long closing gives waiting calls to leave the store's queue. */
    static final long WAIT_MILLIS = 5000;

    private final NameTable names;
    private final Waiters waiters;
    private final EngineRuntime runtime;
    private final LockStore store;
    private final AtomicBoolean closed = new AtomicBoolean();
    /** The withdrawal of the waiting calls, once closing began. */
    private final CompletableFuture<CompletableFuture<Void>> withdrawn = new CompletableFuture<>();
    private final AtomicBoolean finished = new AtomicBoolean();

    RegistryClosing(NameTable names, Waiters waiters, EngineRuntime runtime, LockStore store) {
        this.names = names;
        this.waiters = waiters;
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

    /** No new call from now on; the waiting ones withdraw: completes when they left, or at the limit. */
    private CompletableFuture<Void> withdraw() {
        if (closed.compareAndSet(false, true)) {
            names.openGatesForClose(); // calls waiting at a gate go on, to find the registry closed
            CompletableFuture<Void> left = waiters.withdrawAll();
            runtime.after(TimeUnit.MILLISECONDS.toNanos(WAIT_MILLIS), () -> left.complete(null));
            withdrawn.complete(left);
        }
        return withdrawn.join();
    }

    private void finish() {
        if (finished.compareAndSet(false, true)) {
            runtime.close();
            store.close();
        }
    }
}
