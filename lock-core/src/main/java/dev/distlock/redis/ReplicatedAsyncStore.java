package dev.distlock.redis;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.Renewal;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The non-blocking operations under replica acknowledgement of the replicas online ({@link ReplicaCount}): while
 * none must acknowledge, every call goes straight to Lettuce's asynchronous API; a write that replicas must
 * acknowledge (its {@code WAIT} holds a connection of its own until they have) runs on a thread of the store's, so
 * the caller still never blocks. Releases and reads are never acknowledged.
 */
final class ReplicatedAsyncStore implements AsyncLockStore {

    private final AsyncLockStore direct;
    private final AsyncLockStore acknowledged;
    private final ReplicaCount replicas;

    /**
     * @param direct the operations on Lettuce's asynchronous API
     * @param acknowledged the blocking store's operations, on threads that may block
     */
    ReplicatedAsyncStore(AsyncLockStore direct, AsyncLockStore acknowledged, ReplicaCount replicas) {
        this.direct = direct;
        this.acknowledged = acknowledged;
        this.replicas = replicas;
    }

    /** Where a write goes: straight to Redis while no replica must acknowledge it (and their count is known). */
    private AsyncLockStore writer() {
        return replicas.now() == 0 ? direct : acknowledged;
    }

    @Override
    public CompletionStage<AcquireResult> tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return writer().tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public CompletionStage<AcquireResult> takePermits(String name, String token, int permits, int limit,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return writer().takePermits(name, token, permits, limit, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public CompletionStage<Boolean> keepPermits(String name, String token, int permits) {
        return direct.keepPermits(name, token, permits);
    }

    @Override
    public CompletionStage<AcquireResult> leaveQueue(String name, String token, long leaseMillis) {
        return writer().leaveQueue(name, token, leaseMillis);
    }

    @Override
    public CompletionStage<Boolean> release(String name, String token, long fencingToken) {
        return direct.release(name, token, fencingToken);
    }

    @Override
    public CompletionStage<PassOn> passOn(String name, String token, long fencingToken, String next,
            long leaseMillis, boolean queue, long waiterTimeoutMillis) {
        return writer().passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public CompletionStage<Void> abandon(String name, String token) {
        return direct.abandon(name, token);
    }

    @Override
    public CompletionStage<Boolean> extend(String name, String token, long leaseMillis) {
        return writer().extend(name, token, leaseMillis);
    }

    @Override
    public CompletionStage<Boolean> renew(String name, String token, long leaseMillis) {
        return writer().renew(name, token, leaseMillis);
    }

    @Override
    public List<CompletionStage<Boolean>> renewAll(List<Renewal> batch) {
        return writer().renewAll(batch);
    }

    @Override
    public CompletionStage<Long> remainingLeaseMillis(String name, String token) {
        return direct.remainingLeaseMillis(name, token);
    }
}
