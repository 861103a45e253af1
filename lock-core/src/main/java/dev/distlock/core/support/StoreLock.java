package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.store.StoreSends;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.CompletionStage;

/** The {@link FencedLock} handle: a name and a lease; all state lives in the registry. */
final class StoreLock implements FencedLock {

    private final StoreLockRegistry registry;
    private final Engine engine;
    private final String name;
    private final Lease lease;
    private final String label;

    StoreLock(StoreLockRegistry registry, String name, Lease lease, String label) {
        this.registry = registry;
        this.engine = registry.engine();
        this.name = name;
        this.lease = lease;
        this.label = label;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean tryLock(Duration wait) throws InterruptedException {
        return registry.acquirer().acquire(name, lease, label, waitNanos(wait), true);
    }

    @Override
    public boolean tryLock() {
        try {
            return registry.acquirer().acquire(name, lease, label, 0, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lock() {
        try {
            registry.acquirer().acquire(name, lease, label, Long.MAX_VALUE, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        registry.acquirer().acquire(name, lease, label, Long.MAX_VALUE, true);
    }

    @Override
    public CompletionStage<DetachedLock> tryLockAsync(Duration wait) {
        return registry.acquirer().acquireAsync(name, lease, label, waitNanos(wait));
    }

    @Override
    public CompletionStage<DetachedLock> lockAsync() {
        return registry.acquirer().acquireAsync(name, lease, label, Long.MAX_VALUE);
    }

    @Override
    public void unlock() {
        unlockAfter(Duration.ZERO);
    }

    @Override
    public void unlockAfter(Duration delay) {
        long delayMillis = delayMillis(name, delay);
        Hold hold = registry.ownHold(name);
        if (hold.leaveOnce() == 0) {
            engine.holds().release(hold, delayMillis);
        }
    }

    @Override
    public boolean isLocked() {
        return engine.isLocked(name);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        Hold hold = registry.ownHoldOrNull(name);
        return hold != null && hold.isHeld();
    }

    @Override
    public int holdCount() {
        Hold hold = registry.ownHoldOrNull(name);
        return hold != null ? hold.count() : 0;
    }

    @Override
    public long fencingToken() {
        return registry.ownHold(name).fencingToken;
    }

    @Override
    public WaitEnd waitEnd() {
        return registry.ownHold(name).waitEnd();
    }

    @Override
    public void extend(Duration newLease) {
        Hold hold = registry.ownHold(name);
        StoreSends.await(() -> engine.leases().extend(hold, newLease, engine.holds().blocking()));
    }

    @Override
    public Duration remainingLease() {
        Hold hold = registry.ownHold(name);
        return StoreSends.await(() -> engine.leases().remainingLease(hold, engine.holds().blocking()));
    }

    @Override
    public void verifyHeld() {
        Hold hold = registry.ownHold(name);
        StoreSends.await(() -> engine.leases().verify(hold, engine.holds().blocking()));
    }

    @Override
    public DetachedLock detach() {
        Hold hold = registry.ownHold(name);
        hold.ownBy(null);
        return new StoreDetachedLock(registry, hold);
    }

    /** Handles of one registry for one name are equal: they lock the same thing. */
    @Override
    public boolean equals(Object other) {
        return other instanceof StoreLock lock && lock.registry == registry && lock.name.equals(name);
    }

    @Override
    public int hashCode() {
        return System.identityHashCode(registry) * 31 + name.hashCode();
    }

    @Override
    public String toString() {
        return "FencedLock[" + name + ", " + lease + "]";
    }

    /** An {@code unlockAfter} delay in milliseconds: zero or less is none, more than {@link Lease#MAX} is refused. */
    static long delayMillis(String name, Duration delay) {
        Objects.requireNonNull(delay, "delay");
        if (delay.isNegative() || delay.isZero()) {
            return 0;
        }
        return Lease.checkedExpiryMillis(delay, "Lock '" + name + "': the unlockAfter delay");
    }

    /** A caller's wait in nanoseconds: none if negative, {@link Long#MAX_VALUE} (no limit) if longer than that. */
    static long waitNanos(Duration wait) {
        Objects.requireNonNull(wait, "wait");
        if (wait.isNegative()) {
            return 0;
        }
        try {
            return wait.toNanos();
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE;
        }
    }
}
