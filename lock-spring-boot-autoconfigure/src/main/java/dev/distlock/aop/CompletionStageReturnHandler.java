package dev.distlock.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * {@code CompletionStage}/{@code CompletableFuture} methods: the lock is acquired on the calling thread and
 * held until the returned stage completes, then released without blocking the thread that completed it. The caller
 * gets a stage that completes after the release, with the method's value or failure (a release failure added to
 * the method's failure, or failing the stage if the method succeeded).
 *
 * <p>A call nested in a call that holds the same lock on this thread runs under the outer hold and gives
 * its count back when it returns: the outer call decides how long the lock lives.
 */
final class CompletionStageReturnHandler implements ReturnHandler {

    @Override
    public Object execute(LockCall call) throws Throwable {
        LockContext held = call.acquire();
        if (held == null) {
            return CompletableFuture.completedFuture(null);
        }
        boolean nested = call.isNested();
        Object result = call.invokeOrRelease(held);
        if (result == null || nested) {
            held.release();
            return result;
        }
        // from here on no thread owns the hold: it is released without blocking the thread that completes the stage
        held.detach();
        CompletableFuture<Object> released = new CompletableFuture<>();
        ((CompletionStage<?>) result).whenComplete((value, error) -> held.releaseAsync(error)
                .whenComplete((done, releaseFailure) -> {
                    if (error != null) {
                        released.completeExceptionally(error); // a release failure is added to it
                    } else if (releaseFailure != null) {
                        released.completeExceptionally(releaseFailure instanceof CompletionException wrapped
                                && wrapped.getCause() != null ? wrapped.getCause() : releaseFailure);
                    } else {
                        released.complete(value);
                    }
                }));
        return released;
    }
}
