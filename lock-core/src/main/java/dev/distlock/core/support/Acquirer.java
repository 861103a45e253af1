package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
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

    Acquirer(StoreLockRegistry registry) {
        this.registry = registry;
    }

    /**
     * Acquires {@code name} for the current thread, running the acquisition's steps on it while it waits.
     *
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt ends the wait with {@link InterruptedException}; if not,
     *        the interrupt flag is set again on return
     */
    boolean acquire(String name, Lease lease, String label, long waitNanos, boolean interruptible)
            throws InterruptedException {
        registry.checkOpen(name);
        if (interruptible && Thread.interrupted()) {
            throw new InterruptedException("Interrupted before acquiring lock '" + name + "'");
        }
        Hold current = registry.names().heldBy(name, Thread.currentThread());
        if (current != null) {
            registry.holds().requireHeld(current);
            current.count++;
            return true;
        }
        StepRunners.CallerSteps steps = new StepRunners.CallerSteps(registry.runtime().calls());
        Acquisition acquisition = new Acquisition(registry, registry.request(name, lease, label), waitNanos,
                interruptible, false, steps);
        CompletableFuture<Hold> result = acquisition.start();
        steps.await(acquisition);
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
        if (registry.isClosed()) {
            return CompletableFuture.failedFuture(new IllegalStateException("Lock '" + name
                    + "' cannot be acquired: its registry is closed"));
        }
        Acquisition acquisition = new Acquisition(registry, registry.request(name, lease, label), waitNanos, true,
                true, new StepRunners.Serial(registry.runtime().steps()));
        CompletableFuture<DetachedLock> handle = new CompletableFuture<>();
        acquisition.start().whenComplete((hold, error) -> {
            if (error != null) {
                handle.completeExceptionally(error);
            } else if (!handle.complete(hold != null ? new StoreDetachedLock(registry, hold) : null) && hold != null) {
                releaseInBackground(hold); // the caller gave up meanwhile
            }
        });
        handle.whenComplete((hold, error) -> {
            if (handle.isCancelled()) {
                acquisition.cancel();
            }
        });
        return handle;
    }

    /** A hold made for a caller that gave up meanwhile: released in the background. */
    private void releaseInBackground(Hold hold) {
        registry.holds().releaseAsync(hold, 0).exceptionally(failure -> {
            log.debug("Releasing lock '{}' for a caller that gave up failed", hold.name, failure);
            return null;
        });
    }
}
