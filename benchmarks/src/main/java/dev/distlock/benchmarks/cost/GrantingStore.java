package dev.distlock.benchmarks.cost;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;

/**
 * A store that grants every try at once and allocates nothing: the engine on it costs what the engine alone costs,
 * the figure its budget is about. Not a lock (it never refuses); for the cost check only.
 */
public final class GrantingStore implements LockStore {

    private static final AcquireResult GRANTED = AcquireResult.acquired(1, 0);
    private static final StoreCapabilities NOTHING = StoreCapabilities.builder().build();

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return GRANTED;
    }

    @Override
    public boolean release(String name, String token, long fencingToken) {
        return true;
    }

    @Override
    public void abandon(String name, String token) {
    }

    @Override
    public boolean extend(String name, String token, long leaseMillis) {
        return true;
    }

    @Override
    public boolean renew(String name, String token, long leaseMillis) {
        return true;
    }

    @Override
    public long remainingLeaseMillis(String name, String token) {
        return leaseMillis();
    }

    /** Nothing beyond the owner-checked operations: no queue, notices, reads or announcements. */
    @Override
    public StoreCapabilities capabilities() {
        return NOTHING;
    }

    @Override
    public void close() {
    }

    private static long leaseMillis() {
        return 30_000;
    }
}
