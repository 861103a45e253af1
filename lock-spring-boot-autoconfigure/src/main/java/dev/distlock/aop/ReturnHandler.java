package dev.distlock.aop;

/**
 * Runs a call under its lock in the way its return type needs: a plain method releases when it returns, a
 * {@code CompletionStage} when it completes, a {@code Mono}/{@code Flux} when its subscription ends.
 */
interface ReturnHandler {

    /** Acquires the call's lock, invokes the method and arranges the release. */
    Object execute(LockCall call) throws Throwable;

    /** What the call gives when it failed before trying the lock (its key could not be computed). */
    default Object failed(RuntimeException failure) {
        throw failure;
    }

    /** Whether the method is invoked later, once per subscription, rather than once during the call. */
    default boolean invokesPerSubscription() {
        return false;
    }
}
