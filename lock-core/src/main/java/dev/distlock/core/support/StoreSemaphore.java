package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LeasedSemaphore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** A semaphore of a {@link StoreLockRegistry}: each taking an acquisition of permits, its hold a detached one. */
final class StoreSemaphore implements LeasedSemaphore {

    private final StoreLockRegistry registry;
    private final String name;
    private final int permits;
    private final Lease lease;
    private final String label;

    StoreSemaphore(StoreLockRegistry registry, String name, int permits, Lease lease, String label) {
        this.registry = registry;
        this.name = name;
        this.permits = permits;
        this.lease = lease;
        this.label = label;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int permits() {
        return permits;
    }

    @Override
    public DetachedLock tryAcquire(int count, Duration wait) throws InterruptedException {
        checkCount(count);
        return registry.acquirer().acquirePermits(name, count, permits, lease, label, StoreLock.waitNanos(wait));
    }

    @Override
    public CompletionStage<DetachedLock> tryAcquireAsync(int count, Duration wait) {
        try {
            checkCount(count);
        } catch (IllegalArgumentException invalid) {
            return CompletableFuture.failedFuture(invalid);
        }
        return registry.acquirer().acquirePermitsAsync(name, count, permits, lease, label,
                StoreLock.waitNanos(wait));
    }

    @Override
    public FencedLock asLock() {
        return new PermitLock(this);
    }

    private void checkCount(int count) {
        if (count < 1 || count > permits) {
            throw new IllegalArgumentException("Semaphore '" + name + "' has " + permits + " permits: a taking "
                    + "takes 1 to " + permits + " of them, not " + count);
        }
    }

    @Override
    public String toString() {
        return "LeasedSemaphore[" + name + ", " + permits + " permits]";
    }
}
