package dev.distlock.core;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * One acquisition of a lock on several names that blocks no thread ({@link MultiNameLock#tryLockAsync}): the names
 * one after another, in their canonical order, each as a pending future. It ends with a hold of all of them, or
 * with none: what it took is given back when a name stays busy past the deadline, the backend fails, or the caller
 * cancels the returned future (which also withdraws the name it is waiting for).
 */
final class NamesAcquisition {

    private final String name;
    private final List<FencedLock> locks;
    private final long deadline;
    private final boolean unbounded;
    private final List<DetachedLock> held;
    private final CompletableFuture<DetachedLock> result = new CompletableFuture<>();
    /** The name being waited for, cancelled with the result. */
    private volatile CompletableFuture<DetachedLock> pending;

    /**
     * @param deadline in {@link System#nanoTime()}'s terms; ignored when {@code unbounded}
     */
    NamesAcquisition(String name, List<FencedLock> locks, long deadline, boolean unbounded) {
        this.name = name;
        this.locks = locks;
        this.deadline = deadline;
        this.unbounded = unbounded;
        this.held = new ArrayList<>(locks.size());
    }

    CompletionStage<DetachedLock> start() {
        result.whenComplete((hold, failure) -> {
            CompletableFuture<DetachedLock> step = pending;
            if (result.isCancelled() && step != null) {
                step.cancel(true);
            }
        });
        next();
        return result;
    }

    /** Takes the next name, or ends with all of them; each step runs after the one before has answered. */
    private void next() {
        if (held.size() == locks.size()) {
            if (!result.complete(new DetachedNames(name, List.copyOf(held)))) {
                DetachedNames.giveBack(held); // cancelled meanwhile
            }
            return;
        }
        if (result.isDone()) {
            DetachedNames.giveBack(held);
            return;
        }
        FencedLock lock = locks.get(held.size());
        CompletableFuture<DetachedLock> step = (unbounded ? lock.lockAsync()
                : lock.tryLockAsync(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())))).toCompletableFuture();
        pending = step;
        if (result.isCancelled()) {
            step.cancel(true);
        }
        step.whenComplete((hold, failure) -> {
            if (failure != null) {
                DetachedNames.giveBack(held);
                result.completeExceptionally(DetachedNames.unwrapped(failure));
            } else if (hold == null) {
                DetachedNames.giveBack(held);
                result.complete(null);
            } else {
                held.add(hold);
                next();
            }
        });
    }
}
