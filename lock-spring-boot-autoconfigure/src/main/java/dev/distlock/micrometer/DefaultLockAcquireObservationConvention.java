package dev.distlock.micrometer;

import io.micrometer.common.KeyValues;

/**
 * The default {@link LockAcquireObservationConvention}: observation {@value #NAME}, contextual name
 * {@code "acquire <label>"}, low-cardinality {@code lock}, {@code outcome} and
 * {@code wait.end}, high-cardinality
 * {@code distlock.key} and {@code distlock.fencing.token}. Extend it to change one of them.
 *
 * @since 0.1.0
 */
public class DefaultLockAcquireObservationConvention extends LockObservationConventionSupport
        implements LockAcquireObservationConvention {

    /** The observation's name; Micrometer's default meter handler times it under this name. */
    public static final String NAME = "distlock.acquisition";

    static final DefaultLockAcquireObservationConvention INSTANCE = new DefaultLockAcquireObservationConvention();

    public DefaultLockAcquireObservationConvention() {
        super(NAME, "acquire");
    }

    /** {@code lock}, {@code outcome} and {@code wait.end}. */
    @Override
    public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
        return super.getLowCardinalityKeyValues(context).and(
                DistlockObservationDocumentation.LowCardinalityKeyNames.WAIT_END.withValue(context.getWaitEnd()));
    }
}
