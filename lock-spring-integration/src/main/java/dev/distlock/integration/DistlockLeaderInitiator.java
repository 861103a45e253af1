package dev.distlock.integration;

import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.election.LeaderElection;
import dev.distlock.election.LeaderListener;
import dev.distlock.election.LeaderTerm;
import java.util.Optional;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.leader.Context;
import org.springframework.integration.leader.event.DefaultLeaderEventPublisher;
import org.springframework.integration.leader.event.LeaderEventPublisher;

/**
 * Spring Integration's leader initiator on distlock's {@link LeaderElection}: a replacement for
 * {@code LockRegistryLeaderInitiator} that takes the same {@link Candidate} (its role is the election's name) and
 * publishes the same {@code OnGrantedEvent} and {@code OnRevokedEvent}, with what that initiator cannot give:
 * <ul>
 *   <li>a leader that loses its lock is revoked at its hold's local deadline, before the lease can run out in Redis,
 *   so before another candidate can be granted; {@code LockRegistryLeaderInitiator} finds out at its next heart beat,
 *   which on a renewed lock can come after the next leader was granted;</li>
 *   <li>each term has an epoch, {@link #term()}'s (the lock's fencing token), for the resources the leader writes
 *   to;</li>
 *   <li>a waiting candidate is told of a hand-off at once rather than trying every busy-wait interval.</li>
 * </ul>
 *
 * <pre>{@code
 * @Bean
 * DistlockLeaderInitiator leaderInitiator(dev.distlock.core.LockRegistry locks) {
 *     return new DistlockLeaderInitiator(locks, new DefaultCandidate("node-1", "file-poller"));
 * }
 * }</pre>
 *
 * <p>{@link Candidate#onGranted} and {@link Candidate#onRevoked} and the events run on the election's thread, one at
 * a time, in order: the candidate is told first, then the event is published. An {@code onGranted} that throws
 * {@link InterruptedException} gives the term up (as a yield) once its granted event is published. {@link Context#yield()} gives the term up: another waiting candidate is granted, and this one
 * stands again behind it.
 *
 * @since 0.1.0
 */
public final class DistlockLeaderInitiator implements SmartLifecycle, ApplicationEventPublisherAware {

    private static final Logger log = LoggerFactory.getLogger(DistlockLeaderInitiator.class);

    private final Candidate candidate;
    private final LeaderElection election;
    private final Context context = new ElectionContext();
    private volatile LeaderEventPublisher publisher;
    private boolean autoStartup = true;
    private int phase = Integer.MAX_VALUE - 1000;

    /** An initiator for {@code candidate}, in the election of its role, with the registry's default lease. */
    public DistlockLeaderInitiator(LockRegistry locks, Candidate candidate) {
        this(locks, candidate, settings -> { });
    }

    /** An initiator for {@code candidate}, with election settings made by {@code settings} (a lease, a retry delay). */
    public DistlockLeaderInitiator(LockRegistry locks, Candidate candidate,
            Consumer<LeaderElection.Builder> settings) {
        this.candidate = candidate;
        LeaderElection.Builder builder = LeaderElection.builder(locks, candidate.getRole()).listener(new Told());
        settings.accept(builder);
        this.election = builder.build();
    }

    /** Where the granted and revoked events go; by default the application context's. */
    public void setLeaderEventPublisher(LeaderEventPublisher publisher) {
        this.publisher = publisher;
    }

    @Override
    public void setApplicationEventPublisher(ApplicationEventPublisher applicationEventPublisher) {
        if (publisher == null) {
            publisher = new DefaultLeaderEventPublisher(applicationEventPublisher);
        }
    }

    /** The candidate's context: whether it leads, and a way to yield. */
    public Context getContext() {
        return context;
    }

    /** The term this candidate leads now, with its epoch, if it leads. */
    public Optional<LeaderTerm> term() {
        return election.term();
    }

    /** The election this initiator runs. */
    public LeaderElection election() {
        return election;
    }

    public void setAutoStartup(boolean autoStartup) {
        this.autoStartup = autoStartup;
    }

    @Override
    public boolean isAutoStartup() {
        return autoStartup;
    }

    public void setPhase(int phase) {
        this.phase = phase;
    }

    @Override
    public int getPhase() {
        return phase;
    }

    @Override
    public void start() {
        election.start();
    }

    @Override
    public void stop() {
        election.stop();
    }

    @Override
    public void stop(Runnable callback) {
        election.stopAsync().whenComplete((stopped, failure) -> callback.run());
    }

    @Override
    public boolean isRunning() {
        return election.isRunning();
    }

    /** Tells the candidate, then the event publisher. */
    private final class Told implements LeaderListener {

        @Override
        public void granted(LeaderTerm term) {
            boolean interrupted = false;
            try {
                candidate.onGranted(context);
            } catch (InterruptedException ex) {
                interrupted = true;
            }
            LeaderEventPublisher to = publisher;
            if (to != null) {
                to.publishOnGranted(DistlockLeaderInitiator.this, context, candidate.getRole());
            }
            if (interrupted) {
                log.warn("Leader initiator '{}': onGranted was interrupted; the term is given up", term.election());
                election.yieldLeadership();
            }
        }

        @Override
        public void revoked(LeaderTerm term, LockLostException loss) {
            candidate.onRevoked(context);
            LeaderEventPublisher to = publisher;
            if (to != null) {
                to.publishOnRevoked(DistlockLeaderInitiator.this, context, candidate.getRole());
            }
        }
    }

    /** Spring Integration's view of the election. */
    private final class ElectionContext implements Context {

        @Override
        public boolean isLeader() {
            return election.isLeader();
        }

        @Override
        public void yield() {
            election.yieldLeadership();
        }

        @Override
        public String getRole() {
            return candidate.getRole();
        }

        @Override
        public String toString() {
            return "DistlockLeaderInitiator.Context[role=" + candidate.getRole() + ", leader=" + isLeader() + "]";
        }
    }
}
