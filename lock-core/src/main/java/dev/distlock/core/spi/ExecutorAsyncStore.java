package dev.distlock.core.spi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * A store's blocking operations made on an executor ({@link AsyncLockStore#on}), or on the calling thread without
 * one ({@link AsyncLockStore#onCallingThread}). The store's capabilities are read at each call that needs one, not
 * when this is made: a store may offer this very wrapper among them.
 */
final class ExecutorAsyncStore implements AsyncLockStore {

    private static final CompletableFuture<Boolean> YES = CompletableFuture.completedFuture(true);
    private static final CompletableFuture<Boolean> NO = CompletableFuture.completedFuture(false);

    private final LockStore store;
    /** Where the calls are made; {@code null}: on the calling thread. */
    private final Executor pool;

    ExecutorAsyncStore(LockStore store, Executor pool) {
        this.store = store;
        this.pool = pool;
    }

    @Override
    public CompletableFuture<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        if (pool == null) { // once per lock call: made here, no lambda (see answered)
            try {
                return answered(store.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
            } catch (RuntimeException | Error failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        return onPool(() -> store.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletableFuture<AcquireResult> takePermits(String name, String token, int permits, int limit,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        PermitClaims claims = store.capabilities().permits().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " takes no permits"));
        if (pool == null) {
            try {
                return answered(claims.takePermits(name, token, permits, limit, leaseMillis, queue,
                        waiterTimeoutMillis));
            } catch (RuntimeException | Error failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        return onPool(() -> claims.takePermits(name, token, permits, limit, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletableFuture<Boolean> keepPermits(String name, String token, int permits) {
        PermitClaims claims = store.capabilities().permits().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " takes no permits"));
        return onPool(() -> claims.keepPermits(name, token, permits));
    }

    @Override
    public CompletableFuture<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
        WaitQueue queue = store.capabilities().queue().orElseThrow(() -> new UnsupportedOperationException(
                store.getClass().getSimpleName() + " queues no waiters"));
        return onPool(() -> queue.leaveQueue(name, token, leaseMillis));
    }

    @Override
    public CompletableFuture<Boolean> release(String name, String token, long fencingToken) {
        if (pool == null) {
            try {
                return answered(store.release(name, token, fencingToken));
            } catch (RuntimeException | Error failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        return onPool(() -> store.release(name, token, fencingToken));
    }

    @Override
    public CompletableFuture<PassOn> passOn(String name, String token, long fencingToken, String next,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        PassingOn passing = store.capabilities().passingOn().orElse(null);
        if (passing == null) {
            return AsyncLockStore.super.passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis)
                    .toCompletableFuture();
        }
        if (pool == null) {
            try {
                return answered(passing.passOn(name, token, fencingToken, next, leaseMillis, queue,
                        waiterTimeoutMillis));
            } catch (RuntimeException | Error failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        return onPool(() -> passing.passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletableFuture<Void> abandon(String name, String token) {
        return onPool(() -> {
            store.abandon(name, token);
            return null;
        });
    }

    @Override
    public CompletableFuture<Boolean> extend(String name, String token, long leaseMillis) {
        return onPool(() -> store.extend(name, token, leaseMillis));
    }

    @Override
    public CompletableFuture<Boolean> renew(String name, String token, long leaseMillis) {
        return onPool(() -> store.renew(name, token, leaseMillis));
    }

    /** In one call if the store renews in batches, else each renewal on its own, side by side. */
    @Override
    public List<CompletionStage<Boolean>> renewAll(List<Renewal> renewals) {
        BatchRenewal batches = store.capabilities().batchRenewal().orElse(null);
        if (batches == null) {
            return AsyncLockStore.super.renewAll(renewals);
        }
        CompletableFuture<boolean[]> batch = onPool(() -> batches.renewAll(renewals));
        List<CompletionStage<Boolean>> answers = new ArrayList<>(renewals.size());
        for (int i = 0; i < renewals.size(); i++) {
            int position = i;
            answers.add(batch.thenApply(owned -> owned[position]));
        }
        return answers;
    }

    @Override
    public CompletableFuture<Long> remainingLeaseMillis(String name, String token) {
        return onPool(() -> store.remainingLeaseMillis(name, token));
    }

    private <T> CompletableFuture<T> onPool(Supplier<T> call) {
        if (pool == null) {
            try {
                return answered(call.get());
            } catch (RuntimeException | Error failure) {
                return CompletableFuture.failedFuture(failure);
            }
        }
        try {
            return CompletableFuture.supplyAsync(call, pool);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.failedFuture(closed);
        }
    }

    /**
     * The stage of an answer made on the calling thread, complete. A yes or no is one of two stages made once and
     * shared: completing, cancelling or timing out a completed stage changes nothing, and nothing here forces a value
     * on one. The operations a lock call makes (a try, a release, a hand-off) call the store directly rather than
     * through {@link #onPool}: a lambda capturing their arguments is an object per call wherever the compiler does not
     * inline it away.
     */
    @SuppressWarnings("unchecked")
    private static <T> CompletableFuture<T> answered(T answer) {
        if (answer instanceof Boolean yes) {
            return (CompletableFuture<T>) (yes ? YES : NO);
        }
        return CompletableFuture.completedFuture(answer);
    }
}
