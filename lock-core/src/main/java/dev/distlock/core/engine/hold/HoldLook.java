package dev.distlock.core.engine.hold;

/**
 * What is due for a hold when the {@link Watchdog} looks at it ({@link Hold#look}); for a renewal, the lease to
 * restore and the lease epoch it is sent under (an extend after it makes its answer stale).
 */
public record HoldLook(Due due, long leaseMillis, int epoch) {

    static final HoldLook NOTHING = new HoldLook(Due.NOTHING, 0, 0);
    static final HoldLook LOSS = new HoldLook(Due.LOSS, 0, 0);
    static final HoldLook LATER = new HoldLook(Due.LATER, 0, 0);

    /** A renewal to {@code leaseMillis}, counted in flight by the hold. */
    static HoldLook renewal(long leaseMillis, int epoch) {
        return new HoldLook(Due.RENEWAL, leaseMillis, epoch);
    }

    /** What the watchdog must do. */
    public enum Due {
        /** Nothing: the hold ended or was found lost. */
        NOTHING,
        /** The deadline passed: the hold is lost. */
        LOSS,
        /** Send a renewal; the hold counts it as in flight. */
        RENEWAL,
        /** Look again later. */
        LATER
    }
}
