package dev.distlock.election;

import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A candidate in a leader election: at most one candidate of an election, across every process that shares the
 * lock backend, is leader at a time. A started candidate waits for the election's lock (the lock of the election's
 * name, queued in arrival order, told of a hand-off at once); holding it makes it leader for a term whose
 * {@linkplain LeaderTerm#epoch() epoch} is the hold's fencing token. The lock is renewed while the candidate leads.
 *
 * <pre>{@code
 * LeaderElection audit = LeaderElection.builder(registry, "nightly-audit")
 *         .listener(new LeaderListener() {
 *             public void granted(LeaderTerm term) { auditor.start(term.epoch()); }
 *             public void revoked(LeaderTerm term, LockLostException loss) { auditor.stop(); }
 *         })
 *         .build();
 * audit.start();
 * ...
 * audit.close();
 * }</pre>
 *
 * <p><b>A term ends here before another can begin.</b> A leader whose renewals are not confirmed is revoked at its
 * hold's local deadline, which passes before its lease can run out in the backend (by the clock drift the registry
 * allows for), so before any other candidate can be granted; {@link #isLeader()} turns false at that deadline
 * whatever the listeners are doing. A stopped leader is revoked, then releases the lock, and the next candidate is
 * granted at once. What no lock can rule out is a process paused past its lease (a long GC pause, a frozen VM): it
 * finds out when it runs again, after the next leader may have begun. Pass the epoch to what the leader writes, and
 * have the resource refuse a smaller epoch than it has seen.
 *
 * <p>A candidate that lost leadership, or failed to reach the backend, stands again: at once after a loss, after the
 * retry delay after a failure. It stops standing when stopped or when its registry closes.
 *
 * @since 0.1.0
 */
public final class LeaderElection implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaderElection.class);
    /** How long {@link #stop()} waits for the revocation and the release. */
    private static final long STOP_BOUND_SECONDS = 10;

    private final String name;
    /** The candidate's loop and its state; this class is its public handle. */
    private final Candidacy candidacy;

    private LeaderElection(Builder builder) {
        this.name = builder.name;
        this.candidacy = new Candidacy(builder.name, builder.registry.obtain(builder.name, builder.lease,
                "leader-election"), List.copyOf(builder.listeners), builder.retryDelay);
    }

    /** A candidate in the election {@code name} of {@code registry}'s backend; the lock of that name elects. */
    public static Builder builder(LockRegistry registry, String name) {
        return new Builder(registry, name);
    }

    /** The election's name. */
    public String name() {
        return name;
    }

    /** Starts standing for election; does nothing if started. */
    public void start() {
        candidacy.start();
    }

    /** Whether the candidate is started (standing, or leading). */
    public boolean isRunning() {
        return candidacy.isRunning();
    }

    /** Whether this candidate is leader now: it holds the election's lock and its local deadline has not passed. */
    public boolean isLeader() {
        return candidacy.isLeader();
    }

    /** The term this candidate leads now, if it is leader. */
    public Optional<LeaderTerm> term() {
        return candidacy.term();
    }

    /**
     * Stops standing: a waiting candidate leaves the queue; a leader is revoked ({@link LeaderListener#revoked} with
     * no loss), then releases the lock, so the next candidate is granted at once. Waits for both, at most ten seconds
     * (not at all when called from a listener); does nothing if not started.
     */
    public void stop() {
        ElectionThread stopping = candidacy.listenersThread();
        CompletableFuture<Void> stopped = stopAsync();
        if (stopping != null && stopping.isCurrent()) {
            return;
        }
        try {
            stopped.get(STOP_BOUND_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        } catch (TimeoutException | ExecutionException ex) {
            log.warn("Leader election '{}': stepping down took longer than {} s; the lock expires with its lease",
                    name, STOP_BOUND_SECONDS);
        }
    }

    /** {@link #stop()} without waiting: completes once the leader was revoked and the release answered. */
    public CompletableFuture<Void> stopAsync() {
        return candidacy.stopAsync();
    }

    /**
     * Gives up the term this candidate leads, if any, and stands again: revoked ({@link LeaderListener#revoked} with
     * no loss), then the lock is released, so a candidate waiting elsewhere is granted first; this one waits behind
     * it. Does nothing unless leader. Completes when the release answered.
     */
    public CompletableFuture<Void> yieldLeadership() {
        return candidacy.yieldLeadership();
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }

    @Override
    public String toString() {
        return "LeaderElection[" + name + (isLeader() ? ", leader" : "") + "]";
    }

    /** Builds a {@link LeaderElection}. */
    public static final class Builder {

        private final LockRegistry registry;
        private final String name;
        private final List<LeaderListener> listeners = new ArrayList<>();
        private Lease lease = Lease.renewed();
        private Duration retryDelay = Duration.ofSeconds(1);

        private Builder(LockRegistry registry, String name) {
            this.registry = Objects.requireNonNull(registry, "registry");
            this.name = Objects.requireNonNull(name, "name");
        }

        /**
         * The lease of the election's lock (renewed while leading); the registry's default if not set. A leader whose
         * process dies is replaced about a lease later.
         */
        public Builder lease(Duration lease) {
            this.lease = Lease.renewed(lease);
            return this;
        }

        /** How long a candidate whose wait for the lock failed waits before it stands again; 1 s if not set. */
        public Builder retryDelay(Duration retryDelay) {
            if (Objects.requireNonNull(retryDelay, "retryDelay").isNegative() || retryDelay.isZero()) {
                throw new IllegalArgumentException("Leader election '" + name + "': retryDelay must be positive, was "
                        + retryDelay);
            }
            this.retryDelay = retryDelay;
            return this;
        }

        /** Adds a listener, told of every term's grant and revocation. */
        public Builder listener(LeaderListener listener) {
            listeners.add(Objects.requireNonNull(listener, "listener"));
            return this;
        }

        /**
         * The candidate, not started.
         *
         * @throws dev.distlock.core.InvalidLockNameException if the name is no valid lock name
         */
        public LeaderElection build() {
            return new LeaderElection(this);
        }
    }
}
