package dev.distlock.benchmarks.cost;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import java.util.Map;

/**
 * A store that grants every try at once and allocates nothing: the engine on it costs what the engine alone costs,
 * the figure its budget is about. Not a lock (it never refuses); for the cost check only.
 */
public final class GrantingStore implements LockStore {

    private static final AcquireResult GRANTED = AcquireResult.acquired(1, 0);

    @Override
    public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
            long waiterTimeoutMillis) {
        return GRANTED;
    }

    @Override
    public AcquireResult leaveQueue(String name, String token, long leaseMillis) {
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

    @Override
    public boolean isLocked(String name) {
        return false;
    }

    @Override
    public LockSnapshot inspect(String name) {
        return new LockSnapshot(null, 0, 0, 0);
    }

    @Override
    public void announce(String instance, Map<String, String> description, long ttlMillis) {
    }

    @Override
    public Map<String, String> announcement(String instance) {
        return Map.of();
    }

    @Override
    public void close() {
    }

    private static long leaseMillis() {
        return 30_000;
    }
}
