package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.store.StoreSends;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;

/** A hold handed from its thread to whoever releases it. */
final class StoreDetachedLock implements DetachedLock {

    private final StoreLockRegistry registry;
    private final Engine engine;
    private final Hold hold;
    private final AtomicBoolean released = new AtomicBoolean();

    StoreDetachedLock(StoreLockRegistry registry, Hold hold) {
        this.registry = registry;
        this.engine = registry.engine();
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
    public WaitEnd waitEnd() {
        return hold.waitEnd();
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
        engine.holds().release(hold, delayMillis);
    }

    @Override
    public void extend(Duration lease) {
        StoreSends.await(() -> extend(lease, engine.holds().blocking()));
    }

    @Override
    public CompletionStage<Void> unlockAsync() {
        if (!released.compareAndSet(false, true)) {
            return CompletableFuture.failedFuture(releasedAlready());
        }
        return engine.holds().releaseAsync(hold, 0);
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
        return engine.holds().releaseAsync(hold, delayMillis);
    }

    @Override
    public CompletionStage<Void> extendAsync(Duration lease) {
        return extend(lease, engine.holds().nonBlocking());
    }

    private CompletionStage<Void> extend(Duration lease, StoreSends via) {
        return released.get() ? CompletableFuture.failedFuture(releasedAlready())
                : engine.leases().extend(hold, lease, via);
    }

    @Override
    public Duration remainingLease() {
        return StoreSends.await(() -> remainingLease(engine.holds().blocking()));
    }

    @Override
    public CompletionStage<Duration> remainingLeaseAsync() {
        return remainingLease(engine.holds().nonBlocking());
    }

    private CompletionStage<Duration> remainingLease(StoreSends via) {
        return released.get() ? CompletableFuture.failedFuture(releasedAlready())
                : engine.leases().remainingLease(hold, via);
    }

    @Override
    public void verifyHeld() {
        StoreSends.await(() -> verifyHeld(engine.holds().blocking()));
    }

    @Override
    public CompletionStage<Void> verifyHeldAsync() {
        return verifyHeld(engine.holds().nonBlocking());
    }

    private CompletionStage<Void> verifyHeld(StoreSends via) {
        return released.get() ? CompletableFuture.failedFuture(releasedAlready())
                : engine.leases().verify(hold, via);
    }

    @Override
    public CompletionStage<LockLostException> whenEnded() {
        return hold.whenEnded().minimalCompletionStage();
    }

    @Override
    public String toString() {
        return "DetachedLock[" + hold.name + ", fencing token " + hold.fencingToken + "]";
    }

    private IllegalMonitorStateException releasedAlready() {
        return new IllegalMonitorStateException("Lock '" + hold.name + "': this detached hold was released already");
    }
}
