package dev.distlock.test;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.Renewal;
import dev.distlock.core.spi.StoreFailure;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link LockStore} that forwards every call to another: the base of a store that scripts, simulates or records
 * some of the calls (override those) and leaves the others to the store behind it.
 */
public abstract class ForwardingLockStore implements LockStore {

    private final LockStore delegate;

    /** Forwards to {@code delegate}. */
    protected ForwardingLockStore(LockStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return delegate.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        return delegate.leaveQueue(name, token, leaseMillis);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return delegate.release(name, token, fencingToken);
    }

    @Override
    public PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return delegate.passOn(name, token, fencingToken, next, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public boolean passesOn() {
        return delegate.passesOn();
    }

    @Override
    public void abandon(String name, String token) {
        delegate.abandon(name, token);
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return delegate.extend(name, token, leaseMillis);
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return delegate.renew(name, token, leaseMillis);
    }

    @Override
    public boolean[] renewAll(List<Renewal> renewals) {
        return delegate.renewAll(renewals);
    }

    @Override
    public boolean renewsInBatches() {
        return delegate.renewsInBatches();
    }

    @Override
    public boolean raiseFence(String name, String token, long fencingToken) {
        return delegate.raiseFence(name, token, fencingToken);
    }

    @Override
    public boolean forceRelease(String name, long fencingToken) {
        return delegate.forceRelease(name, fencingToken);
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        return delegate.remainingLeaseMillis(name, token);
    }

    @Override
    public boolean isLocked(String name) {
        return delegate.isLocked(name);
    }

    @Override
    public LockSnapshot inspect(String name) {
        return delegate.inspect(name);
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
        delegate.announce(instance, description, ttlMillis);
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return delegate.announcement(instance);
    }

    @Override
    public AsyncLockStore async() {
        return delegate.async();
    }

    @Override
    public HandOffNotices handOffs() {
        return delegate.handOffs();
    }

    @Override
    public StoreFailure classify(RuntimeException failure) {
        return delegate.classify(failure);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
