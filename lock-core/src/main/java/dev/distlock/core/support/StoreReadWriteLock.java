package dev.distlock.core.support;

import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;

/** The {@link FencedReadWriteLock} handle: its two sides, each a {@link StoreLock} with its {@link Claim}. */
record StoreReadWriteLock(FencedLock readLock, FencedLock writeLock) implements FencedReadWriteLock {

    @Override
    public String name() {
        return readLock.name();
    }

    @Override
    public String toString() {
        return "FencedReadWriteLock[" + name() + "]";
    }
}
