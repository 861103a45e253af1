package dev.distlock.election;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.runtime.DaemonThreads;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A started election's own thread ({@code distlock-leader-<name>}): its listeners are told there, one call at a
 * time, in the order of the news, and its retries wait there. A listener that throws is logged and stops nothing.
 */
final class ElectionThread {

    private static final Logger log = LoggerFactory.getLogger(ElectionThread.class);

    private final String election;
    private final List<LeaderListener> listeners;
    private final ScheduledExecutorService executor;
    private volatile Thread thread;

    ElectionThread(String election, List<LeaderListener> listeners) {
        this.election = election;
        this.listeners = listeners;
        ThreadFactory threads = DaemonThreads.factory("distlock-leader-" + election);
        this.executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            Thread made = threads.newThread(runnable);
            thread = made;
            return made;
        });
    }

    /** Tells the listeners that {@code term} began. */
    void granted(LeaderTerm term) {
        executor.execute(() -> tell(listener -> listener.granted(term)));
    }

    /** Tells the listeners that {@code term} was lost. */
    void lost(LeaderTerm term, LockLostException loss) {
        executor.execute(() -> tell(listener -> listener.revoked(term, loss)));
    }

    /**
     * Steps down from {@code term} (if any): the listeners are told it was revoked with no loss, then {@code hold} is
     * released; completes when the release answered.
     */
    CompletableFuture<Void> stepDown(LeaderTerm term, DetachedLock hold) {
        CompletableFuture<Void> stepped = new CompletableFuture<>();
        executor.execute(() -> {
            if (term == null) {
                stepped.complete(null);
                return;
            }
            tell(listener -> listener.revoked(term, null));
            hold.unlockAsync().whenComplete((released, failure) -> stepped.complete(null));
        });
        return stepped;
    }

    /** Runs {@code task} on this thread after {@code delay}. */
    void after(Duration delay, Runnable task) {
        executor.schedule(task, delay.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Whether the caller runs on this thread (a listener). */
    boolean isCurrent() {
        return Thread.currentThread() == thread;
    }

    /** Takes no new work; what is queued (a step-down) still runs. */
    void shutdown() {
        executor.shutdown();
    }

    private void tell(Consumer<LeaderListener> call) {
        for (LeaderListener listener : listeners) {
            try {
                call.accept(listener);
            } catch (RuntimeException ex) {
                log.error("Leader election '{}': listener {} failed", election, listener, ex);
            }
        }
    }
}
