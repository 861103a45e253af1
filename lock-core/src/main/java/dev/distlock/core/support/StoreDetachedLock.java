package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/** A hold handed from its thread to whoever releases it. */
final class StoreDetachedLock implements DetachedLock {

    private final StoreLockRegistry registry;
    private final Hold hold;
    private final AtomicBoolean released = new AtomicBoolean();

    StoreDetachedLock(StoreLockRegistry registry, Hold hold) {
        this.registry = registry;
        this.hold = hold;
    }

    @Override
    public String name() {
        return hold.name;
    }

    @Override
    public long fencingToken() {
        return hold.fencingToken;
    }

    @Override
    public boolean isHeld() {
        return !released.get() && hold.isHeld();
    }

    @Override
    public void unlock() {
        unlockAfter(Duration.ZERO);
    }

    @Override
    public void unlockAfter(Duration delay) {
        long delayMillis = StoreLock.delayMillis(hold.name, delay);
        if (!released.compareAndSet(false, true)) {
            throw releasedAlready();
        }
        registry.holds().release(hold, delayMillis);
    }

    @Override
    public void extend(Duration lease) {
        requireNotReleased();
        registry.leases().extend(hold, lease);
    }

    @Override
    public CompletionStage<Void> unlockAsync() {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return registry.holds().releaseAsync(hold, 0);
    }

    @Override
    public CompletionStage<Void> unlockAfterAsync(Duration delay) {
        long delayMillis = StoreLock.delayMillis(hold.name, delay);
        if (delayMillis == 0) {
            return unlockAsync();
        }
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return registry.holds().releaseAsync(hold, delayMillis);
    }

    @Override
    public CompletionStage<Void> extendAsync(Duration lease) {
        if (released.get()) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return registry.leases().extendAsync(hold, lease);
    }

    @Override
    public CompletionStage<Duration> remainingLeaseAsync() {
        if (released.get()) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return registry.leases().remainingLeaseAsync(hold);
    }

    @Override
    public Duration remainingLease() {
        requireNotReleased();
        return registry.leases().remainingLease(hold);
    }

    @Override
    public void verifyHeld() {
        requireNotReleased();
        registry.leases().verify(hold);
    }

    @Override
    public CompletionStage<Void> verifyHeldAsync() {
        if (released.get()) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return registry.leases().verifyAsync(hold);
    }

    @Override
    public String toString() {
        return "DetachedLock[" + hold.name + ", fencing token " + hold.fencingToken + "]";
    }

    private void requireNotReleased() {
        if (released.get()) {
            throw releasedAlready();
        }
    }

    private IllegalMonitorStateException releasedAlready() {
        return new IllegalMonitorStateException("Lock '" + hold.name + "': this detached hold was released already");
    }
}
