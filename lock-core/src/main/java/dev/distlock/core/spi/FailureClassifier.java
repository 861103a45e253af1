package dev.distlock.core.spi;

/**
 * What a failure thrown by a store's operation means to the engine ({@link StoreCapabilities#failures()}): refused for
 * a moment, in doubt (it may have run) or permanent.
 */
@FunctionalInterface
public interface FailureClassifier {

    /** Every failure permanent: a store that cannot tell its failures apart. */
    FailureClassifier PERMANENT = failure -> StoreFailure.PERMANENT;

    /** What {@code failure}, thrown by one of the store's operations (or its asynchronous form), means. */
    StoreFailure classify(RuntimeException failure);
}
