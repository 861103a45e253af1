package dev.distlock.core.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * A store's owner-checked operations sent without blocking the caller: a capability a {@link LockStore} offers
 * ({@link StoreCapabilities#async()}) when its client is asynchronous. Each method means what the method of the same
 * name means, on {@link LockStore} or on the capability that offers it; its stage completes with the answer, or with
 * the failure the backend reported (which the store's {@linkplain StoreCapabilities#failures() classifier}
 * explains), on whatever thread the client answers on. A store without this capability has its calls for
 * non-blocking callers and for the background (renewals, clean-ups) made on the engine's bounded pool of threads.
 *
 * <p>Calls must return at once: a method that waits for the backend before it returns defeats the point. They may
 * wait briefly for the client (a connection made on first use).
 */
public interface AsyncLockStore {

    /**
     * {@code store}'s blocking operations, each made on {@code executor} (which it holds until the store answers); a
     * call the executor refuses fails with its {@link java.util.concurrent.RejectedExecutionException}.
     */
    static AsyncLockStore on(LockStore store, Executor executor) {
        return new ExecutorAsyncStore(store, Objects.requireNonNull(executor, "executor"));
    }

    /**
     * {@code store}'s blocking operations, each made on the calling thread, its stage complete on return (how the
     * engine makes a blocking caller's calls). Unlike {@code on(store, Runnable::run)}, a lock call's operations (a
     * try, a release, a hand-off) make nothing but their stage (a yes or no not even that).
     */
    static AsyncLockStore onCallingThread(LockStore store) {
        return new ExecutorAsyncStore(store, null);
    }

    /** {@link LockStore#tryAcquire}, sent. */
    CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis);

    /**
     * {@link PermitClaims#takePermits}, sent; sent only to a store that offers {@linkplain StoreCapabilities#permits()
     * permits}. The default fails: a client that offers them sends them.
     */
    default CompletionStage<AcquireResult> takePermits(String name, String token, int permits, int limit,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                getClass().getSimpleName() + " takes no permits"));
    }

    /** {@link PermitClaims#keepPermits}, sent; as {@link #takePermits}, the default fails. */
    default CompletionStage<Boolean> keepPermits(String name, String token, int permits) {
        return CompletableFuture.failedFuture(new UnsupportedOperationException(
                getClass().getSimpleName() + " takes no permits"));
    }

    /** {@link WaitQueue#leaveQueue}, sent; sent only to a store with a {@linkplain StoreCapabilities#queue() queue}. */
    CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis);

    /** {@link LockStore#release}, sent. */
    CompletionStage<Boolean> release(String name, String token, long fencingToken);

    /**
     * {@link PassingOn#passOn}, sent; the engine sends it only to a store that offers
     * {@linkplain StoreCapabilities#passingOn() passing on}. The default sends the release, then the try.
     */
    default CompletionStage<PassOn> passOn(String name, String token, long fencingToken, String next,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return release(name, token, fencingToken).thenCompose(released -> tryAcquire(name, next, leaseMillis, queue,
                waiterTimeoutMillis).thenApply(answer -> new PassOn(released, answer)));
    }

    /** {@link LockStore#abandon}, sent. */
    CompletionStage<Void> abandon(String name, String token);

    /** {@link LockStore#extend}, sent. */
    CompletionStage<Boolean> extend(String name, String token, long leaseMillis);

    /** {@link LockStore#renew}, sent. */
    CompletionStage<Boolean> renew(String name, String token, long leaseMillis);

    /**
     * {@link BatchRenewal#renewAll}, sent: one stage per renewal, in order, each completing with that hold's answer or
     * with the failure of the call that carried it (a batch may take several calls, as on a cluster, where one node
     * failing fails only the renewals it was sent). The default sends each renewal on its own.
     */
    default List<CompletionStage<Boolean>> renewAll(List<Renewal> renewals) {
        List<CompletionStage<Boolean>> answers = new ArrayList<>(renewals.size());
        renewals.forEach(renewal -> answers.add(renew(renewal.name(), renewal.token(), renewal.leaseMillis())));
        return answers;
    }

    /** {@link LockStore#remainingLeaseMillis}, sent. */
    CompletionStage<Long> remainingLeaseMillis(String name, String token);
}
