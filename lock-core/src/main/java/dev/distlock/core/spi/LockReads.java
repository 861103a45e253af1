package dev.distlock.core.spi;

/**
 * What a store can tell of a lock without being its owner ({@link StoreCapabilities#reads()}): whether it is held,
 * by whom, for how long, and who waits. The registry's {@code isLocked} and {@code inspect} ask it.
 */
public interface LockReads {

    /** Whether anybody holds the lock. */
    boolean isLocked(String name);

    /**
     * What the store knows of the lock now: its owner token, fencing token, lease left and live waiters (how many,
     * and the first {@link LockSnapshot#MAX_WAITER_TOKENS} of their tokens in queue order).
     */
    LockSnapshot inspect(String name);
}
