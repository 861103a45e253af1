package dev.distlock.redis;

import java.time.Duration;

/**
 * How many replicas must acknowledge an acquisition, hand-off confirmation or renewal ({@code WAIT}) before it
 * counts, and how long to wait for them: a fixed number, none, or (the default) the replicas the primary has online
 * at the time ({@link ReplicaCount}). Redis replicates asynchronously, so a primary that fails right after granting
 * a lock may be replaced by a replica that never saw it.
 *
 * @param replicas the replicas that must acknowledge; 0 for none, {@link #CONNECTED} for those online at the time
 * @param timeoutMillis how long {@code WAIT} waits for them
 */
record ReplicaAcks(int replicas, long timeoutMillis) {

    /** {@link #replicas} of the replicas online at the time of each write. */
    static final int CONNECTED = -1;
    static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    static final ReplicaAcks NONE = new ReplicaAcks(0, 0);
    /** The default: the replicas online at the time, for up to 50ms. */
    static final ReplicaAcks CONNECTED_DEFAULT = new ReplicaAcks(CONNECTED, DEFAULT_TIMEOUT.toMillis());

    static ReplicaAcks of(int replicas, Duration timeout) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicaAcknowledgement replicas must be 0 (off) or more, got "
                    + replicas);
        }
        return replicas == 0 ? NONE : new ReplicaAcks(replicas, checkedTimeout(timeout));
    }

    /** Acknowledgement by the replicas online at the time of each write, waiting up to {@code timeout}. */
    static ReplicaAcks connected(Duration timeout) {
        return new ReplicaAcks(CONNECTED, checkedTimeout(timeout));
    }

    private static long checkedTimeout(Duration timeout) {
        if (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(Duration.ofSeconds(10)) > 0) {
            throw new IllegalArgumentException("replicaAcknowledgement timeout must be between 1ms and 10s, got "
                    + timeout);
        }
        return timeout.toMillis();
    }

    /** Whether a fixed number of replicas must acknowledge, whatever the primary has online. */
    boolean fixed() {
        return replicas > 0;
    }

    /** Whether the count follows the replicas online at the time. */
    boolean followsConnected() {
        return replicas == CONNECTED;
    }

    /** The failure of a write too few replicas acknowledged: transient ({@code NOREPLICAS}), so tried again. */
    NotReplicatedException shortfall(String name, String what, int acknowledged, int required) {
        return new NotReplicatedException("NOREPLICAS lock '" + name + "' was " + what + " on the primary, but only "
                + acknowledged + " of the " + required + (followsConnected() ? " replicas online" : " replicas required")
                + " acknowledged it within " + timeoutMillis + "ms (distlock replica acknowledgement); it does not count");
    }

    /** A write that too few replicas acknowledged. */
    static final class NotReplicatedException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        NotReplicatedException(String message) {
            super(message);
        }
    }
}
