package dev.distlock.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * {@code CompletionStage}/{@code CompletableFuture} methods: the call returns a stage at once and blocks no thread.
 * The lock is acquired as a pending future ({@link dev.distlock.core.FencedLock#tryLockAsync}), then the method runs
 * on the application's task executor ({@link MethodExecutors}) and the lock is held until the stage it returned
 * completes; it is released without blocking the thread that completed it. The caller's stage completes after the
 * release: with the method's value, or its failure (a release failure added to it), or the release's failure.
 * Failing to lock, or a method that throws, fails the stage; a skipped call completes it with {@code null};
 * cancelling it while the call waits for the lock leaves the queue.
 *
 * <p>A call nested in one that holds the same lock on this thread runs at once under that hold, which decides how
 * long the lock lives.
 */
final class CompletionStageReturnHandler implements ReturnHandler {

    /** Runs nested calls as a plain method, with the stage they return. */
    private final ReturnHandler nested = new BlockingReturnHandler(CompletionStage.class);

    @Override
    public Object execute(LockCall call) {
        if (call.isHeldByCurrentThread() || call.enclosingDetached() != null) {
            try {
                return nested.execute(call);
            } catch (Throwable failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        CompletableFuture<Object> result = new CompletableFuture<>();
        CompletableFuture<CallHold> acquiring = call.acquireAsync();
        acquiring.whenComplete((held, failure) -> {
            if (failure != null) {
                result.completeExceptionally(failure);
            } else if (held == null) {
                result.complete(null); // skipped
            } else if (result.isDone()) {
                held.releaseQuietly(); // cancelled meanwhile
            } else {
                start(call, held, result);
            }
        });
        result.whenComplete((value, error) -> {
            if (result.isCancelled()) {
                acquiring.cancel(true);
            }
        });
        return result;
    }

    @Override
    public Object failed(RuntimeException failure) {
        return CompletableFuture.failedFuture(failure);
    }

    private static void start(LockCall call, CallHold held, CompletableFuture<Object> result) {
        try {
            call.methodExecutor().execute(() -> run(call, held, result));
        } catch (RuntimeException rejected) {
            release(held, null, rejected, result);
        }
    }

    /** Invokes the method under {@code held} and releases when the stage it returned completes. */
    private static void run(LockCall call, CallHold held, CompletableFuture<Object> result) {
        Object stage;
        try {
            stage = call.invoke(held);
        } catch (Throwable failure) {
            release(held, null, failure, result);
            return;
        }
        if (stage == null) {
            release(held, null, null, result);
            return;
        }
        ((CompletionStage<?>) stage).whenComplete((value, error) -> release(held, value, error, result));
    }

    private static void release(CallHold held, Object value, Throwable failure, CompletableFuture<Object> result) {
        held.releaseAsync(failure).whenComplete((done, releaseFailure) -> {
            if (failure != null) {
                result.completeExceptionally(failure); // a release failure is added to it
            } else if (releaseFailure != null) {
                result.completeExceptionally(releaseFailure instanceof CompletionException wrapped
                        && wrapped.getCause() != null ? wrapped.getCause() : releaseFailure);
            } else {
                result.complete(value);
            }
        });
    }
}
