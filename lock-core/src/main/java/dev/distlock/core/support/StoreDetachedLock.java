package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
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
        return !released.get() && !hold.isLost();
    }

    @Override
    public void unlock() {
        if (!released.compareAndSet(false, true)) {
            throw new IllegalMonitorStateException("Lock '" + hold.name + "': this detached hold was released already");
        }
        registry.release(hold);
    }

    @Override
    public String toString() {
        return "DetachedLock[" + hold.name + ", fencing token " + hold.fencingToken + "]";
    }
}
