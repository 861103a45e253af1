package dev.distlock.test;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import java.util.Objects;

/**
 * A {@link LockStore} that forwards every call to another: the base of a store that scripts, simulates or records
 * some of the calls (override those) and leaves the others to the store behind it. It offers what the store behind it
 * offers ({@link #capabilities()}); a subclass that intercepts a capability's calls offers its own in its place
 * ({@code delegate().capabilities().toBuilder().queue(this::leaveQueue).build()}).
 */
public abstract class ForwardingLockStore implements LockStore {

    private final LockStore delegate;

    /** Forwards to {@code delegate}. */
    protected ForwardingLockStore(LockStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store the calls go to. */
    protected LockStore delegate() {
        return delegate;
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return delegate.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return delegate.release(name, token, fencingToken);
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
    public long remainingLeaseMillis(String name, String token) {
        return delegate.remainingLeaseMillis(name, token);
    }

    @Override
    public StoreCapabilities capabilities() {
        return delegate.capabilities();
    }

    @Override
    public void close() {
        delegate.close();
    }
}
