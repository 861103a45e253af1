package dev.distlock.micrometer;

import io.micrometer.common.KeyValues;

/**
 * The default {@link LockAcquireObservationConvention}: observation {@value #NAME}, contextual name
 * {@code "acquire <label>"}, low-cardinality {@code lock} and {@code outcome}, high-cardinality
 * {@code distlock.key} and {@code distlock.fencing.token}.
 *
 * @since 0.1.0
 */
public class DefaultLockAcquireObservationConvention implements LockAcquireObservationConvention {

    /** The observation's name; Micrometer's default meter handler times it under this name. */
    public static final String NAME = "distlock.acquisition";

    static final DefaultLockAcquireObservationConvention INSTANCE = new DefaultLockAcquireObservationConvention();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        return "acquire " + context.getLabel();
    }

    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        return LockKeyValues.low(context);
    }

    @Override
    public KeyValues getHighCardinalityKeyValues(LockObservationContext context) {
        return LockKeyValues.high(context);
    }
}
