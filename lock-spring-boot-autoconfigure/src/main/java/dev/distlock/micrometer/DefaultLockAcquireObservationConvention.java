package dev.distlock.micrometer;

/**
 * The default {@link LockAcquireObservationConvention}: observation {@value #NAME}, contextual name
 * {@code "acquire <label>"}, low-cardinality {@code lock} and {@code outcome}, high-cardinality
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
}
