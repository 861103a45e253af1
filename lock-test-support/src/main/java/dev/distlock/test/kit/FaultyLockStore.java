package dev.distlock.test.kit;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.test.ForwardingLockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Forwards every call, except the ones a test has told to fail once ({@link #failNext}). */
final class FaultyLockStore extends ForwardingLockStore {

    private record Fault(StoreOp op, String name, RuntimeException failure) {
    }

    private final List<Fault> faults = new ArrayList<>();

    FaultyLockStore(LockStore delegate) {
        super(delegate);
    }

    synchronized void failNext(StoreOp op, String name, RuntimeException failure) {
        faults.add(new Fault(Objects.requireNonNull(op, "op"), Objects.requireNonNull(name, "name"),
                Objects.requireNonNull(failure, "failure")));
    }

    synchronized void clearFaults() {
        faults.clear();
    }

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        failIfTold(StoreOp.TRY_ACQUIRE, name);
        return super.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        failIfTold(StoreOp.RELEASE, name);
        return super.release(name, token, fencingToken);
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        failIfTold(StoreOp.RENEW, name);
        return super.renew(name, token, leaseMillis);
    }

    /** What the store behind offers, but renewals one at a time, through {@link #renew}, so a fault told for one name hits it. */
    @Override
    public StoreCapabilities capabilities() {
        return delegate().capabilities().toBuilder().batchRenewal(null).build();
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        failIfTold(StoreOp.EXTEND, name);
        return super.extend(name, token, leaseMillis);
    }

    private void failIfTold(StoreOp op, String name) {
        RuntimeException failure = null;
        synchronized (this) {
            for (int i = 0; i < faults.size(); i++) {
                Fault fault = faults.get(i);
                if (fault.op() == op && fault.name().equals(name)) {
                    failure = faults.remove(i).failure();
                    break;
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
