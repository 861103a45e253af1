package dev.distlock.core.spi;

/**
 * A store that accepts a fencing token chosen elsewhere ({@link StoreCapabilities#fenceRaising()}): how a store made
 * of several backends (Redlock) makes the token it chose, the largest of its majority, binding on each of them.
 */
@FunctionalInterface
public interface FenceRaising {

    /**
     * If the lock is held under {@code token}, makes {@code fencingToken} the last one issued for the name when it is
     * larger than the kept one, so that every later token is larger still.
     *
     * @return whether the lock is held under the token
     */
    boolean raiseFence(String name, String token, long fencingToken);
}
