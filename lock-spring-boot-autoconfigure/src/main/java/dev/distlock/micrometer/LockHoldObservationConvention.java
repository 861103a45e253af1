package dev.distlock.micrometer;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names and tags the hold observation of {@code @DistributedLock} calls; define a bean of this type to
 * replace {@link DefaultLockHoldObservationConvention}.
 *
 * @since 0.1.0
 */
public interface LockHoldObservationConvention extends ObservationConvention<LockObservationContext> {

    @Override
    default boolean supportsContext(Observation.Context context) {
        return context instanceof LockObservationContext lock && lock.isHold();
    }
}
