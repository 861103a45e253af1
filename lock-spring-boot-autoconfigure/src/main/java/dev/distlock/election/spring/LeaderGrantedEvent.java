package dev.distlock.election.spring;

import dev.distlock.election.LeaderTerm;
import org.springframework.context.ApplicationEvent;

/**
 * A {@link LeaderCandidate} became leader: published on the election's thread when its term begins.
 *
 * @since 0.1.0
 */
public class LeaderGrantedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient LeaderTerm term;

    /** {@code candidate} began {@code term}. */
    public LeaderGrantedEvent(LeaderCandidate candidate, LeaderTerm term) {
        super(candidate);
        this.term = term;
    }

    /** The candidate that became leader. */
    public LeaderCandidate candidate() {
        return (LeaderCandidate) getSource();
    }

    /** The term that began: the election's name and the epoch to pass to what the leader writes. */
    public LeaderTerm term() {
        return term;
    }
}
