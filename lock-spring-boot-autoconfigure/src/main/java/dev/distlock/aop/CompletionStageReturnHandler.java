package dev.distlock.aop;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code CompletionStage}/{@code CompletableFuture} methods: the lock is acquired on the calling thread and
 * held until the returned stage completes. The caller gets a stage that completes after the release.
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
        // from here on no thread owns the hold, so the completing thread can release it
        held.detach();
        return ((CompletionStage<?>) result).whenComplete((value, error) -> release(held, error));
    }

    private static void release(LockContext held, Throwable error) {
        if (error != null) {
            held.releaseAfter(error);
        } else {
            held.release();
        }
    }
}
