package dev.distlock.aop;

import dev.distlock.annotation.DistributedLock.TimeoutAction;
import dev.distlock.aop.LockCallObserver.Acquiring;
import dev.distlock.aop.LockCallObserver.AcquireOutcome;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockInterruptedException;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.function.Supplier;

/** One call of an annotated method: its operation, its lock (key already evaluated) and the method. */
final class LockCall {

    private final LockOperation operation;
    private final LockRegistry registry;
    private final FencedLock lock;
    /** The lock's names, each asked about once if the wait runs out (who held it). */
    private final List<String> names;
    private final MethodInvoker invoker;
    private final LockCallObserver observer;
    private final Supplier<Executor> methodExecutor;

    LockCall(LockOperation operation, LockRegistry registry, FencedLock lock, List<String> names,
            MethodInvoker invoker, LockCallObserver observer, Supplier<Executor> methodExecutor) {
        this.operation = operation;
        this.registry = registry;
        this.lock = lock;
        this.names = names;
        this.invoker = invoker;
        this.observer = observer;
        this.methodExecutor = methodExecutor;
    }

    /**
     * Acquires the lock for the current thread, waiting at most the operation's timeout.
     *
     * @return the hold, or {@code null} when the wait ran out and the operation says SKIP
     * @throws LockAcquisitionTimeoutException when the wait ran out and the operation says FAIL
     * @throws LockInterruptedException when interrupted while waiting (the flag is set again)
     */
    CallHold acquire() {
        Acquiring observed = observer.acquiring(operation.label(), lock.name(), operation.method(),
                operation.kind());
        long start = System.nanoTime();
        LockCallObserver.AcquireAction<Boolean, InterruptedException> tryLock =
                () -> lock.tryLock(operation.waitTimeout());
        boolean acquired;
        try {
            acquired = observed.around(tryLock);
        } catch (InterruptedException ex) {
            failed(observed, ex);
            Thread.currentThread().interrupt();
            throw new LockInterruptedException(lock.name(), ex);
        } catch (RuntimeException | Error ex) {
            failed(observed, ex);
            throw ex;
        }
        if (acquired) {
            return CallHold.ofThread(lock, registry, operation.label(), operation.holdAtLeast(),
                    observed.acquired(firstToken(lock.fencingTokens()), lock.waitEnd()));
        }
        if (skipped(observed)) {
            return null;
        }
        Duration waited = timedOut(observed, start);
        throw timeout(waited, LockTimeoutException.heldNow(registry, names));
    }

    /**
     * Acquires the lock for no thread, without blocking: {@link #acquire()}'s outcomes, as a future. Cancelling it
     * withdraws the acquisition; a hold that comes anyway is released.
     *
     * @return a future of the hold, of {@code null} when the wait ran out and the operation says SKIP, or failed
     *         with {@link LockAcquisitionTimeoutException} (FAIL) or the backend's failure
     */
    CompletableFuture<CallHold> acquireAsync() {
        Acquiring observed = observer.acquiring(operation.label(), lock.name(), operation.method(),
                operation.kind());
        long start = System.nanoTime();
        LockCallObserver.AcquireAction<CompletionStage<DetachedLock>, RuntimeException> tryLock =
                () -> lock.tryLockAsync(operation.waitTimeout());
        CompletableFuture<DetachedLock> pending;
        try {
            pending = observed.around(tryLock).toCompletableFuture();
        } catch (RuntimeException | Error ex) {
            failed(observed, ex);
            return CompletableFuture.failedFuture(ex);
        }
        CompletableFuture<CallHold> result = new CompletableFuture<>();
        pending.whenComplete((hold, error) -> {
            if (error != null) {
                Throwable failure = error instanceof CompletionException wrapped && wrapped.getCause() != null
                        ? wrapped.getCause() : error;
                failed(observed, failure);
                result.completeExceptionally(failure);
            } else if (hold != null) {
                CallHold held = CallHold.ofDetached(hold, registry, operation.label(), operation.holdAtLeast(),
                        observed.acquired(firstToken(hold.fencingTokens()), hold.waitEnd()));
                if (!result.complete(held)) {
                    held.releaseQuietly(); // the subscriber left meanwhile
                }
            } else if (skipped(observed)) {
                result.complete(null);
            } else {
                Duration waited = timedOut(observed, start);
                // who held it is one blocking read: on the method's executor, never on the thread that answered
                CompletableFuture.supplyAsync(() -> LockTimeoutException.heldNow(registry, names), methodExecutor())
                        .whenComplete((held, unread) -> result.completeExceptionally(
                                timeout(waited, held != null ? held : List.of())));
            }
        });
        result.whenComplete((held, error) -> {
            if (result.isCancelled()) {
                pending.cancel(true);
            }
        });
        return result;
    }

    /** An acquisition that failed: interrupted (or cancelled), or an error. */
    private static void failed(Acquiring observed, Throwable failure) {
        observed.missed(failure instanceof InterruptedException || failure instanceof CancellationException
                ? AcquireOutcome.INTERRUPTED : AcquireOutcome.ERROR, failure);
    }

    /** Whether a wait that ran out ends the call without running it (SKIP); so observed if it does. */
    private boolean skipped(Acquiring observed) {
        if (operation.onTimeout() != TimeoutAction.SKIP) {
            return false;
        }
        observed.missed(AcquireOutcome.SKIPPED, null);
        return true;
    }

    /** A wait that ran out and fails the call: observed; how long it waited since {@code startNanos}. */
    private static Duration timedOut(Acquiring observed, long startNanos) {
        observed.missed(AcquireOutcome.TIMEOUT, null);
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    /** The failure of a call whose wait ran out after {@code waited}, naming who held the lock then. */
    private LockAcquisitionTimeoutException timeout(Duration waited, List<LockInfo> heldNow) {
        return new LockAcquisitionTimeoutException(lock.name(), operation.label(), operation.description(),
                operation.waitTimeout(), waited, heldNow);
    }

    /** The token the observers are told of: the one of the first name, for a lock on several. */
    private static long firstToken(Map<String, Long> tokens) {
        return tokens.values().iterator().next();
    }

    /** Whether the current thread holds the lock already: the call re-enters that hold. */
    boolean isHeldByCurrentThread() {
        return lock.isHeldByCurrentThread();
    }

    /** The hold without an owning thread of an annotated call this one is nested in on this thread, or {@code null}. */
    CallHold enclosingDetached() {
        return CallStack.enclosingDetached(registry, lock.name());
    }

    /** Where the method runs when the lock was acquired without blocking the caller. */
    Executor methodExecutor() {
        return methodExecutor.get();
    }

    /** Invokes the method with {@code held} as the current {@link LockContext}. */
    Object invoke(CallHold held) throws Throwable {
        return held.invokeCurrent(invoker);
    }

    /** Invokes the method under {@code outer}, the hold of a call this one is nested in. */
    Object invokeUnder(CallHold outer) throws Throwable {
        return outer.invokeNested(invoker);
    }

    /** Like {@link #invoke}, but releases {@code held} at once if the method throws. */
    Object invokeOrRelease(CallHold held) throws Throwable {
        try {
            return held.invokeCurrent(invoker);
        } catch (Throwable failure) {
            held.releaseAfter(failure);
            throw failure;
        }
    }

    /** The evaluated key. */
    String key() {
        return lock.name();
    }

    /** The registry the lock comes from. */
    LockRegistry registry() {
        return registry;
    }
}
