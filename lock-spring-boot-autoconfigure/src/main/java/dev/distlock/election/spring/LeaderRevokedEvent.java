package dev.distlock.election.spring;

import dev.distlock.core.LockLostException;
import dev.distlock.election.LeaderTerm;
import java.util.Optional;
import org.springframework.context.ApplicationEvent;

/**
 * A {@link LeaderCandidate}'s term ended: it lost the election's lock (before anyone else can be granted it, as
 * {@link dev.distlock.election.LeaderListener#revoked} says), or it stepped down because the application stops.
 * Published on the election's thread, always after the term's {@link LeaderGrantedEvent}.
 *
 * @since 0.1.0
 */
public class LeaderRevokedEvent extends ApplicationEvent {

    private static final long serialVersionUID = 1L;

    private final transient LeaderTerm term;
    private final transient LockLostException loss;

    /** {@code candidate}'s {@code term} ended: lost ({@code loss}), or stepped down ({@code null}). */
    public LeaderRevokedEvent(LeaderCandidate candidate, LeaderTerm term, LockLostException loss) {
        super(candidate);
        this.term = term;
        this.loss = loss;
    }

    /** The candidate whose term ended. */
    public LeaderCandidate candidate() {
        return (LeaderCandidate) getSource();
    }

    /** The term that ended. */
    public LeaderTerm term() {
        return term;
    }

    /** Why the term was lost; empty if the candidate stepped down because it was stopped. */
    public Optional<LockLostException> loss() {
        return Optional.ofNullable(loss);
    }
}
