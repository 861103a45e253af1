package dev.distlock.core;

/**
 * How the wait of an acquire call that got the lock ended: which event let its successful try happen.
 *
 * @since 0.1.0
 */
public enum WaitEnd {

    /** The first try got the lock: no wait. */
    IMMEDIATE("immediate"),
    /** A hand-off notice from another process's release woke the call (or carried the lock to it). */
    NOTICE("notice"),
    /** The poll timer woke the call (or a retry after a transient failure), and the try then got the lock. */
    POLL("poll"),
    /** The call woke when the holder's lease ran out, and the try then got the lock. */
    LEASE_END("lease-end"),
    /**
     * A caller of the same registry had the lock: its release let this call in (passing this call's first try on with
     * the release, where the store can), and that try got the lock.
     */
    LOCAL_HAND_OFF("local-hand-off");

    private final String tagValue;

    WaitEnd(String tagValue) {
        this.tagValue = tagValue;
    }

    /** The value for tags and observation keys, e.g. {@code lease-end}. */
    public String tagValue() {
        return tagValue;
    }
}
