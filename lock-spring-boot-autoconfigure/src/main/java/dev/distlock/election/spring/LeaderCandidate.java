package dev.distlock.election.spring;

import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.election.LeaderElection;
import dev.distlock.election.LeaderListener;
import dev.distlock.election.LeaderTerm;
import java.util.Optional;
import java.util.function.Consumer;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationEventPublisherAware;
import org.springframework.context.SmartLifecycle;

/**
 * A {@link LeaderElection} as a Spring bean: it stands for election when the application context starts and steps
 * down when it stops, and publishes a {@link LeaderGrantedEvent} and a {@link LeaderRevokedEvent} for each term.
 *
 * <pre>{@code
 * @Bean
 * LeaderCandidate auditLeader(LockRegistry locks) {
 *     return new LeaderCandidate(locks, "nightly-audit");
 * }
 *
 * @Scheduled(cron = "0 0 2 * * *")
 * void audit() {
 *     auditLeader.term().ifPresent(term -> auditor.run(term.epoch()));
 * }
 * }</pre>
 *
 * <p>It starts last and stops first (phase {@link SmartLifecycle#DEFAULT_PHASE}): a stopping application steps down
 * before its web server and executors stop, and so long before the registry and its Redis connection stop; the next
 * instance is granted as soon as the release reaches Redis. Events are published on the election's thread, one at a
 * time, in order; listeners must be short (see {@link LeaderListener}).
 *
 * @since 0.1.0
 */
public class LeaderCandidate implements SmartLifecycle, ApplicationEventPublisherAware {

    private final LeaderElection election;
    private volatile ApplicationEventPublisher publisher;

    /** A candidate in election {@code name}, with the registry's default lease. */
    public LeaderCandidate(LockRegistry registry, String name) {
        this(registry, name, builder -> { });
    }

    /**
     * A candidate in election {@code name}, with settings made by {@code settings} (a lease, a retry delay, listeners
     * of its own besides the events).
     */
    public LeaderCandidate(LockRegistry registry, String name, Consumer<LeaderElection.Builder> settings) {
        LeaderElection.Builder builder = LeaderElection.builder(registry, name).listener(new Events());
        settings.accept(builder);
        this.election = builder.build();
    }

    @Override
    public void setApplicationEventPublisher(ApplicationEventPublisher publisher) {
        this.publisher = publisher;
    }

    /** The election's name. */
    public String name() {
        return election.name();
    }

    /** Whether this instance is leader now ({@link LeaderElection#isLeader()}). */
    public boolean isLeader() {
        return election.isLeader();
    }

    /** The term this instance leads now, if it is leader. */
    public Optional<LeaderTerm> term() {
        return election.term();
    }

    /** The election this bean runs. */
    public LeaderElection election() {
        return election;
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

    @Override
    public int getPhase() {
        return DEFAULT_PHASE;
    }

    @Override
    public String toString() {
        return "LeaderCandidate[" + election.name() + "]";
    }

    /** Publishes the election's news as application events. */
    private final class Events implements LeaderListener {

        @Override
        public void granted(LeaderTerm term) {
            publish(new LeaderGrantedEvent(LeaderCandidate.this, term));
        }

        @Override
        public void revoked(LeaderTerm term, LockLostException loss) {
            publish(new LeaderRevokedEvent(LeaderCandidate.this, term, loss));
        }

        private void publish(Object event) {
            ApplicationEventPublisher to = publisher;
            if (to != null) {
                to.publishEvent(event);
            }
        }
    }
}
