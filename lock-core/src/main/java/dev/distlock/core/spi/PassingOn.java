package dev.distlock.core.spi;

/**
 * A store that releases a hold and tries for the next caller in one call to its backend
 * ({@link StoreCapabilities#passingOn()}): how the engine hands a lock to the next caller of its own process waiting
 * for the name. Without it, the engine releases, and the next caller tries.
 */
@FunctionalInterface
public interface PassingOn {

    /**
     * {@link LockStore#release} of {@code token}'s hold, then {@link LockStore#tryAcquire} for {@code next}, as one
     * step. Each part means what its method means; a store whose queue holds waiters of other processes lets them go
     * first, as its release would.
     *
     * @param token the releasing hold's owner token
     * @param fencingToken the releasing hold's fencing token, as for {@link LockStore#release}
     * @param next the next caller's token, which tries with {@code leaseMillis}, {@code queue} and
     *        {@code waiterTimeoutMillis} as in {@link LockStore#tryAcquire}
     */
    PassOn passOn(String name, String token, long fencingToken, String next, long leaseMillis, boolean queue,
            long waiterTimeoutMillis);
}
