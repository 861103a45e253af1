package dev.distlock.election;

import dev.distlock.core.LockLostException;

/**
 * Told when a candidate becomes leader and when it stops being one. Calls come one at a time, in order, on the
 * election's own thread ({@code distlock-leader-<name>}): a term's {@code revoked} always after its {@code granted}.
 * Keep them short (start or stop work elsewhere): a revocation waits for the call before it.
 *
 * @since 0.1.0
 */
public interface LeaderListener {

    /** This candidate is leader for {@code term} from now on, until {@link #revoked}. */
    default void granted(LeaderTerm term) {
    }

    /**
     * This candidate is no longer leader of {@code term}.
     *
     * @param loss why the term was lost: its renewals were not confirmed before its local deadline, which passes
     *        before the lease can run out in the backend (so before any other candidate can be granted), or the
     *        backend no longer holds it, or its registry was closed; {@code null} if the candidate stepped down: it
     *        was stopped or yielded (then the lock is released after this call returns)
     */
    default void revoked(LeaderTerm term, LockLostException loss) {
    }
}
