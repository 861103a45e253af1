package dev.distlock.core;

/**
 * Work run under a lock by {@link LockRegistry#executeLocked(String, java.time.Duration, LockedTask)}.
 * It may throw a checked exception, which reaches the caller unchanged.
 *
 * @param <T> the result type
 * @param <E> the exception the work may throw
 */
@FunctionalInterface
public interface LockedTask<T, E extends Throwable> {

    /** Does the work while the lock is held. */
    T run() throws E;
}
