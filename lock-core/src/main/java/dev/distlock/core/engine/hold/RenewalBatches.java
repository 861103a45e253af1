package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.Renewal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Sends the renewals that fall due together as one batch ({@link AsyncLockStore#renewAll}): holds with the same
 * lease renew on one grid of moments ({@link HoldClock#renewalDue}), and the renewals asked for within a millisecond
 * of the first go out in one call of up to {@value #MAX_BATCH} holds, so that many holds cost a store call per grid
 * moment rather than one each. Each hold's answer, or the failure of the call that carried it, goes to the
 * {@link Watchdog} on its own; a renewal not answered within a quarter of the shortest lease in its batch counts as
 * failed, whatever the client's own timeout is.
 */
public final class RenewalBatches {

    /** The most holds in one store call: one script of Redis runs them while other clients wait. */
    static final int MAX_BATCH = 500;
    private static final long GATHER_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final AsyncLockStore sends;
    private final EngineRuntime runtime;
    private final Watchdog watchdog;
    /** The renewals asked for since the last batch went out; guarded by this. */
    private List<Due> gathering = new ArrayList<>();

    RenewalBatches(AsyncLockStore sends, EngineRuntime runtime, Watchdog watchdog) {
        this.sends = sends;
        this.runtime = runtime;
        this.watchdog = watchdog;
    }

    /** One hold's renewal, due now: {@code leaseMillis} as of lease epoch {@code epoch}; settled once answered. */
    private static final class Due {

        final Hold hold;
        final long leaseMillis;
        final int epoch;
        private final AtomicBoolean settled = new AtomicBoolean();

        Due(Hold hold, long leaseMillis, int epoch) {
            this.hold = hold;
            this.leaseMillis = leaseMillis;
            this.epoch = epoch;
        }

        /** True for the first answer or failure only. */
        boolean settle() {
            return settled.compareAndSet(false, true);
        }
    }

    /** Sends {@code hold}'s renewal with the others due now. */
    void renew(Hold hold, long leaseMillis, int epoch) {
        List<Due> full = null;
        boolean first;
        synchronized (this) {
            first = gathering.isEmpty();
            gathering.add(new Due(hold, leaseMillis, epoch));
            if (gathering.size() >= MAX_BATCH) {
                full = gathering;
                gathering = new ArrayList<>();
            }
        }
        if (full != null) {
            send(full);
        } else if (first) {
            try {
                runtime.schedule(this::sendGathered, GATHER_NANOS);
            } catch (RejectedExecutionException closed) {
                // the registry is closed: its holds expire with their leases
            }
        }
    }

    private void sendGathered() {
        List<Due> batch;
        synchronized (this) {
            batch = gathering;
            gathering = new ArrayList<>();
        }
        if (!batch.isEmpty()) {
            send(batch);
        }
    }

    private void send(List<Due> batch) {
        long sent = runtime.nanoTime();
        long timeout = batch.stream().mapToLong(due -> HoldClock.renewalTimeoutNanos(due.leaseMillis)).min()
                .orElseThrow();
        AtomicInteger unanswered = new AtomicInteger(batch.size());
        EngineExecutors.Scheduled late;
        try {
            late = runtime.schedule(() -> batch.forEach(due -> {
                if (due.settle()) {
                    watchdog.renewalFailed(due.hold, due.leaseMillis, new TimeoutException("The store did not "
                            + "answer the renewal within " + Duration.ofNanos(timeout) + " (a quarter of the lease)"));
                }
            }), timeout);
        } catch (RejectedExecutionException closed) {
            return;
        }
        List<CompletionStage<Boolean>> answers = sent(batch);
        for (int i = 0; i < batch.size(); i++) {
            Due due = batch.get(i);
            answers.get(i).whenComplete((owned, failure) -> runtime.afterAnswer(() -> {
                if (!due.settle()) {
                    return; // counted as failed already: it came too late
                }
                if (unanswered.decrementAndGet() == 0) {
                    late.cancel();
                }
                if (failure != null) {
                    watchdog.renewalFailed(due.hold, due.leaseMillis, StoreCalls.unwrapped(failure));
                } else {
                    watchdog.renewalAnswered(due.hold, owned, sent, due.leaseMillis, due.epoch);
                }
            }));
        }
    }

    /** The batch sent: an answer per hold, each failed if the store refused to send it. */
    private List<CompletionStage<Boolean>> sent(List<Due> batch) {
        try {
            return sends.renewAll(batch.stream()
                    .map(due -> new Renewal(due.hold.name, due.hold.token, due.leaseMillis)).toList());
        } catch (RuntimeException refused) {
            return Collections.nCopies(batch.size(), CompletableFuture.failedFuture(refused));
        }
    }
}
