package dev.distlock.micrometer;

import io.micrometer.common.KeyValues;

/**
 * The default {@link LockHoldObservationConvention}: observation {@value #NAME}, contextual name
 * {@code "hold <label>"}, low-cardinality {@code lock} and {@code outcome}, high-cardinality
 * {@code distlock.key} and {@code distlock.fencing.token}.
 *
 * @since 0.1.0
 */
public class DefaultLockHoldObservationConvention implements LockHoldObservationConvention {

    /** The observation's name; Micrometer's default meter handler times it under this name. */
    public static final String NAME = "distlock.hold";

    static final DefaultLockHoldObservationConvention INSTANCE = new DefaultLockHoldObservationConvention();

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public String getContextualName(LockObservationContext context) {
        return "hold " + context.getLabel();
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
