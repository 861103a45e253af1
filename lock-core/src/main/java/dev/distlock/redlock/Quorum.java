package dev.distlock.redlock;

import dev.distlock.core.LockBackendException;
import java.util.List;

/**
 * How many of the Redlock nodes make a majority, the one rule every operation counts by, and the failure when
 * fewer than that answered.
 *
 * @param nodes how many nodes there are
 * @param size how many of them are a majority
 */
record Quorum(int nodes, int size) {

    static Quorum of(int nodes) {
        return new Quorum(nodes, nodes / 2 + 1);
    }

    /** Whether {@code count} nodes are a majority. */
    boolean reachedBy(int count) {
        return count >= size;
    }

    /** Fails if fewer nodes than a majority answered, saying how many did and why the others did not. */
    void require(Answers<?> answers) {
        if (!reachedBy(answers.count())) {
            List<Throwable> failures = answers.failures();
            String first = failures.isEmpty() ? "none" : LockBackendException.innermostMessage(failures.get(0));
            throw new RedlockLockStore.QuorumException("Redlock: " + answers.count() + " of " + nodes
                    + " nodes answered, " + size + " needed; first failure: " + first, failures);
        }
    }
}
