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

/**
 * The {@link FencedLock} handle: a name, a lease and what it claims of the name (its lock, or a side of its
 * read-write lock); all state lives in the registry.
 */
final class StoreLock implements FencedLock {

    private final StoreLockRegistry registry;
    private final Engine engine;
    private final String name;
    private final Lease lease;
    private final String label;
    private final Claim claim;

    StoreLock(StoreLockRegistry registry, String name, Lease lease, String label, Claim claim) {
        this.registry = registry;
        this.engine = registry.engine();
        this.name = name;
        this.lease = lease;
        this.label = label;
        this.claim = claim;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean tryLock(Duration wait) throws InterruptedException {
        return registry.acquirer().acquire(claim, name, lease, label, waitNanos(wait), true);
    }

    @Override
    public boolean tryLock() {
        try {
            return registry.acquirer().acquire(claim, name, lease, label, 0, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lock() {
        try {
            registry.acquirer().acquire(claim, name, lease, label, Long.MAX_VALUE, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        registry.acquirer().acquire(claim, name, lease, label, Long.MAX_VALUE, true);
    }

    @Override
    public CompletionStage<DetachedLock> tryLockAsync(Duration wait) {
        return registry.acquirer().acquireAsync(claim, name, lease, label, waitNanos(wait));
    }

    @Override
    public CompletionStage<DetachedLock> lockAsync() {
        return registry.acquirer().acquireAsync(claim, name, lease, label, Long.MAX_VALUE);
    }

    @Override
    public void unlock() {
        unlockAfter(Duration.ZERO);
    }

    @Override
    public void unlockAfter(Duration delay) {
        long delayMillis = delayMillis(name, delay);
        Hold hold = registry.ownHoldOrNull(name);
        switch (claim.leave(name, hold)) {
            case RELEASED -> engine.holds().release(hold, delayMillis);
            case READ -> StoreSends.await(() -> engine.downgrades().toRead(hold, engine.holds().blocking()));
            case HELD -> {
                // the thread holds the claim again, or another one of the name, under the same hold
            }
        }
    }

    @Override
    public boolean isLocked() {
        return engine.isLocked(name);
    }

    @Override
    public boolean isHeldByCurrentThread() {
        Hold hold = registry.ownHoldOrNull(name);
        return hold != null && claim.count(hold) > 0 && hold.isHeld();
    }

    @Override
    public int holdCount() {
        Hold hold = registry.ownHoldOrNull(name);
        return hold != null ? claim.count(hold) : 0;
    }

    @Override
    public long fencingToken() {
        return own().fencingToken;
    }

    @Override
    public WaitEnd waitEnd() {
        return own().waitEnd();
    }

    @Override
    public void extend(Duration newLease) {
        Hold hold = own();
        StoreSends.await(() -> engine.leases().extend(hold, newLease, engine.holds().blocking()));
    }

    @Override
    public Duration remainingLease() {
        Hold hold = own();
        return StoreSends.await(() -> engine.leases().remainingLease(hold, engine.holds().blocking()));
    }

    @Override
    public void verifyHeld() {
        Hold hold = own();
        StoreSends.await(() -> engine.leases().verify(hold, engine.holds().blocking()));
    }

    @Override
    public DetachedLock detach() {
        Hold hold = own();
        hold.ownBy(null);
        return new StoreDetachedLock(registry, hold);
    }

    /** The current thread's hold of this claim; the monitor exception if it holds none. */
    private Hold own() {
        return claim.own(name, registry.ownHoldOrNull(name));
    }

    /** Handles of one registry for one name and claim are equal: they lock the same thing. */
    @Override
    public boolean equals(Object other) {
        return other instanceof StoreLock lock && lock.registry == registry && lock.name.equals(name)
                && lock.claim == claim;
    }

    @Override
    public int hashCode() {
        return (System.identityHashCode(registry) * 31 + name.hashCode()) * 31 + claim.hashCode();
    }

    @Override
    public String toString() {
        return claim == Claim.LOCK ? "FencedLock[" + name + ", " + lease + "]"
                : "FencedLock[" + claim + " of read-write lock " + name + ", " + lease + "]";
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
