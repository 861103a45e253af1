package dev.distlock.core.support;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.LockStore;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * A store's blocking operations made on an executor, as {@link AsyncLockStore}: for a store whose client blocks
 * (Jedis, a pooled Lettuce factory, replica acknowledgement, in memory), on the registry's bounded pool of
 * {@link BackgroundThreads#calls() call threads}, each held until the store answers; for a blocking caller, on its
 * own thread ({@code Runnable::run}), the stage complete on return.
 */
final class PooledStore implements AsyncLockStore {

    private final LockStore store;
    private final Executor pool;

    PooledStore(LockStore store, Executor pool) {
        this.store = store;
        this.pool = pool;
    }

    /** {@code store}'s own asynchronous operations if it has them, else its blocking ones made on {@code pool}. */
    static AsyncLockStore of(LockStore store, Executor pool) {
        AsyncLockStore own = store.async();
        return own != null ? own : new PooledStore(store, pool);
    }

    @Override
    public CompletableFuture<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return onPool(() -> store.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis));
    }

    @Override
    public CompletableFuture<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
        return onPool(() -> store.leaveQueue(name, token, leaseMillis));
    }

    @Override
    public CompletableFuture<Boolean> release(String name, String token) {
        return onPool(() -> store.release(name, token));
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

    @Override
    public CompletableFuture<Long> remainingLeaseMillis(String name, String token) {
        return onPool(() -> store.remainingLeaseMillis(name, token));
    }

    private <T> CompletableFuture<T> onPool(Supplier<T> call) {
        try {
            return CompletableFuture.supplyAsync(call, pool);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.failedFuture(new IllegalStateException("The lock registry is closed", closed));
        }
    }
}
