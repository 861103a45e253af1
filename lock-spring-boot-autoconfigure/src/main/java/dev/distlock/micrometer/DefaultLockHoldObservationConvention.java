package dev.distlock.micrometer;

/**
 * The default {@link LockHoldObservationConvention}: observation {@value #NAME}, contextual name
 * {@code "hold <label>"}, low-cardinality {@code lock} and {@code outcome}, high-cardinality
 * {@code distlock.key} and {@code distlock.fencing.token}. Extend it to change one of them.
 *
 * @since 0.1.0
 */
public class DefaultLockHoldObservationConvention extends LockObservationConventionSupport
        implements LockHoldObservationConvention {

    /** The observation's name; Micrometer's default meter handler times it under this name. */
    public static final String NAME = "distlock.hold";

    static final DefaultLockHoldObservationConvention INSTANCE = new DefaultLockHoldObservationConvention();

    public DefaultLockHoldObservationConvention() {
        super(NAME, "hold");
    }
}
