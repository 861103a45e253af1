package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.HoldKind;
import dev.distlock.core.Lease;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.acquire.Acquisition;
import dev.distlock.core.engine.acquire.NamesAcquisition;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.store.StoreCalls;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the acquisitions of a registry's locks: for a blocking caller, which runs the steps on its own thread while
 * it waits and owns the hold (re-entry counts locally, without the store); or for a non-blocking one, whose future
 * completes with a hold no thread owns.
 */
final class Acquirer {

    private static final Logger log = LoggerFactory.getLogger(Acquirer.class);

    private final StoreLockRegistry registry;
    private final Engine engine;

    Acquirer(StoreLockRegistry registry) {
        this.registry = registry;
        this.engine = registry.engine();
    }

    /**
     * Acquires {@code claim} of {@code name} for the current thread, running the acquisition's steps on it while it
     * waits; a thread that holds the name already counts the claim on its hold ({@link Claim#reenter}).
     *
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt ends the wait with {@link InterruptedException}; if not,
     *        the interrupt flag is set again on return
     */
    boolean acquire(Claim claim, String name, Lease lease, String label, long waitNanos, boolean interruptible)
            throws InterruptedException {
        engine.checkOpen(name);
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock '" + name + "'");
        }
        Hold current = engine.names().heldBy(name, Thread.currentThread());
        if (current != null) {
            engine.holds().requireHeld(current);
            claim.reenter(name, current);
            return true;
        }
        Hold hold = awaitHold(claim.request(engine, name, lease, label), waitNanos, interruptible);
        if (hold == null) {
            return false;
        }
        hold.ownBy(Thread.currentThread());
        awaitAnnounced();
        return true;
    }

    /** The hold {@code request} got, or {@code null}, its acquisition's steps run on the calling thread. */
    private Hold awaitHold(LockRequest request, long waitNanos, boolean interruptible) throws InterruptedException {
        StepRunners.CallerSteps steps = new StepRunners.CallerSteps(engine.runtime());
        Acquisition acquisition = new Acquisition(engine, request, waitNanos, interruptible, false, steps);
        CompletableFuture<Hold> result = acquisition.startOnCaller();
        steps.await(acquisition);
        return outcome(result, acquisition.wasInterrupted());
    }

    /**
     * Acquires every one of {@code names} (distinct, in their canonical order) for the current thread, running the
     * acquisition's steps on it while it waits: true with all of them, false with none if the wait ran out.
     *
     * @param waitNanos how long to wait for all of them; 0 for one try each, {@link Long#MAX_VALUE} for no limit
     */
    boolean acquireAll(List<String> names, Lease lease, String label, long waitNanos, boolean interruptible)
            throws InterruptedException {
        engine.checkOpen(names.toString());
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock " + names);
        }
        StepRunners.CallerSteps steps = new StepRunners.CallerSteps(engine.runtime());
        NamesAcquisition acquisition = new NamesAcquisition(engine, names, lease, label, waitNanos, interruptible,
                Thread.currentThread(), steps);
        CompletableFuture<List<Hold>> result = acquisition.start();
        steps.await(acquisition);
        if (outcome(result, acquisition.wasInterrupted()) == null) {
            return false;
        }
        awaitAnnounced();
        return true;
    }

    /**
     * A registry's first hold is reported only once the registry is announced (one store call, once per registry), so
     * that another process's {@code inspect} never finds the lock held by nobody it can name.
     */
    private void awaitAnnounced() {
        StepRunners.CallerSteps.awaitUninterruptibly(engine.runtime(), engine.announced());
    }

    /**
     * What a blocking caller's acquisition ended with, once done: its value, or its failure thrown as it is; an
     * interrupt it waited through (or that came as it took the lock) is set again on the thread, unless the call
     * ends with {@link InterruptedException}, which tells it.
     */
    private static <T> T outcome(CompletableFuture<T> result, boolean interruptedThrough) throws InterruptedException {
        try {
            T value = result.getNow(null);
            if (interruptedThrough) {
                Thread.currentThread().interrupt();
            }
            return value;
        } catch (CompletionException failed) {
            Throwable cause = failed.getCause();
            if (cause instanceof InterruptedException interrupt) {
                throw interrupt;
            }
            if (interruptedThrough) {
                Thread.currentThread().interrupt();
            }
            if (cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw failed;
        }
    }

    /**
     * Takes {@code count} of the {@code limit} permits of the semaphore {@code name} for no thread, running the
     * acquisition's steps on the calling thread while it waits (interruptible): the hold, or {@code null} if the wait
     * ran out.
     */
    DetachedLock acquirePermits(String name, int count, int limit, Lease lease, String label, long waitNanos)
            throws InterruptedException {
        engine.checkOpen(name);
        if (Thread.interrupted()) {
            throw new InterruptedException("Interrupted before taking permits of semaphore '" + name + "'");
        }
        Hold hold = awaitHold(engine.permitRequest(name, count, limit, HoldKind.PERMITS, lease, label), waitNanos,
                true);
        if (hold == null) {
            return null;
        }
        awaitAnnounced();
        return new StoreDetachedLock(registry, hold);
    }

    /** {@link #acquirePermits} without blocking: as {@link #acquireAsync}, for permits. */
    CompletableFuture<DetachedLock> acquirePermitsAsync(String name, int count, int limit, Lease lease, String label,
            long waitNanos) {
        return acquireAsync(name, () -> engine.permitRequest(name, count, limit, HoldKind.PERMITS, lease, label),
                waitNanos);
    }

    /**
     * Acquires {@code claim} of {@code name} for no thread: the future completes with the hold, or {@code null} if
     * the wait ran out. Cancelling it withdraws the acquisition; a hold made meanwhile is released.
     */
    CompletableFuture<DetachedLock> acquireAsync(Claim claim, String name, Lease lease, String label,
            long waitNanos) {
        return acquireAsync(name, () -> claim.request(engine, name, lease, label), waitNanos);
    }

    /** An acquisition of what {@code request} makes (once the registry is known open), for no thread. */
    private CompletableFuture<DetachedLock> acquireAsync(String name, Supplier<LockRequest> request, long waitNanos) {
        if (engine.isClosed()) {
            return closed("'" + name + "'");
        }
        Acquisition acquisition = new Acquisition(engine, request.get(), waitNanos, true, true,
                new StepRunners.Serial(engine.runtime().steps()));
        return detached(acquisition.start(), acquisition::cancel, hold -> new StoreDetachedLock(registry, hold),
                this::releaseInBackground);
    }

    /**
     * Acquires every one of {@code names} (distinct, in their canonical order) for no thread: the future completes
     * with a hold of all of them, or {@code null} (having none) if the wait ran out. Cancelling it withdraws the
     * acquisition and gives back what it took.
     */
    CompletableFuture<DetachedLock> acquireAllAsync(List<String> names, Lease lease, String label, long waitNanos) {
        if (engine.isClosed()) {
            return closed(names.toString());
        }
        NamesAcquisition acquisition = new NamesAcquisition(engine, names, lease, label, waitNanos, true, null,
                new StepRunners.Serial(engine.runtime().steps()));
        return detached(acquisition.start(), acquisition::cancel,
                holds -> new StoreDetachedNames(names.toString(), holds.stream()
                        .map(hold -> (DetachedLock) new StoreDetachedLock(registry, hold)).toList()),
                holds -> holds.forEach(this::releaseInBackground));
    }

    private static CompletableFuture<DetachedLock> closed(String lock) {
        return CompletableFuture.failedFuture(new IllegalStateException("Lock " + lock
                + " cannot be acquired: its registry is closed"));
    }

    /**
     * The caller's future of a non-blocking acquisition's {@code outcome}: its hold as the handle {@code detach}
     * makes, {@code null}, or its failure; cancelling it {@code cancel}s the acquisition, and a hold made for a
     * caller that gave up meanwhile is given to {@code giveBack}.
     */
    private <T> CompletableFuture<DetachedLock> detached(CompletableFuture<T> outcome, Runnable cancel,
            Function<T, DetachedLock> detach, Consumer<T> giveBack) {
        CompletableFuture<DetachedLock> handle = new CompletableFuture<>();
        outcome.thenCompose(this::afterAnnounced).whenComplete((held, error) -> {
            if (error != null) {
                handle.completeExceptionally(StoreCalls.unwrapped(error));
            } else if (!handle.complete(held != null ? detach.apply(held) : null) && held != null) {
                giveBack.accept(held); // the caller gave up meanwhile
            }
        });
        handle.whenComplete((held, error) -> {
            if (handle.isCancelled()) {
                cancel.run();
            }
        });
        return handle;
    }

    /** {@code held}, once the registry is announced ({@link #awaitAnnounced}); answered on a step executor then. */
    private <T> CompletableFuture<T> afterAnnounced(T held) {
        CompletableFuture<Void> announced = engine.announced();
        if (held == null || announced.isDone()) {
            return CompletableFuture.completedFuture(held);
        }
        return announced.thenApplyAsync(done -> held, engine.runtime()::afterAnswer);
    }

    /** A hold made for a caller that gave up meanwhile: released in the background. */
    private void releaseInBackground(Hold hold) {
        engine.holds().releaseAsync(hold, 0).exceptionally(failure -> {
            log.debug("Releasing lock '{}' for a caller that gave up failed", hold.name, failure);
            return null;
        });
    }
}
