package dev.distlock.redis;

import java.time.Duration;

/**
 * How many replicas must acknowledge an acquisition, hand-off confirmation or renewal ({@code WAIT}) before
 * it counts, and how long to wait for them. Off by default: Redis replicates asynchronously, so a primary
 * that fails right after granting a lock may be replaced by a replica that never saw it.
 *
 * @param replicas the replicas that must acknowledge; 0 for none
 * @param timeoutMillis how long {@code WAIT} waits for them
 */
record ReplicaAcks(int replicas, long timeoutMillis) {

    static final ReplicaAcks NONE = new ReplicaAcks(0, 0);

    static ReplicaAcks of(int replicas, Duration timeout) {
        if (replicas < 0) {
            throw new IllegalArgumentException("replicaAcknowledgement replicas must be 0 (off) or more, got "
                    + replicas);
        }
        if (replicas > 0
                && (timeout == null || timeout.toMillis() < 1 || timeout.compareTo(Duration.ofSeconds(10)) > 0)) {
            throw new IllegalArgumentException("replicaAcknowledgement timeout must be between 1ms and 10s, got "
                    + timeout);
        }
        return replicas == 0 ? NONE : new ReplicaAcks(replicas, timeout.toMillis());
    }

    boolean enabled() {
        return replicas > 0;
    }

    /** The failure of a write too few replicas acknowledged: transient ({@code NOREPLICAS}), so tried again. */
    NotReplicatedException shortfall(String name, String what, int acknowledged) {
        return new NotReplicatedException("NOREPLICAS lock '" + name + "' was " + what + " on the primary, but only "
                + acknowledged + " of the " + replicas + " replicas required acknowledged it within " + timeoutMillis
                + "ms (distlock replica acknowledgement); it does not count");
    }

    /** A write that too few replicas acknowledged. */
    static final class NotReplicatedException extends IllegalStateException {

        private static final long serialVersionUID = 1L;

        NotReplicatedException(String message) {
            super(message);
        }
    }
}
