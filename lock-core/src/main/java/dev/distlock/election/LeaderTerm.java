package dev.distlock.election;

import java.time.Instant;

/**
 * One term of a leader: the election it won, its epoch and when it began.
 *
 * @param election the election's name (the lock's name)
 * @param epoch the term's epoch: the fencing token of the lock that made the candidate leader, larger than every
 *        earlier term's of the election (as fencing tokens are: see the README's guarantees). A resource that
 *        stores the largest epoch it has seen and refuses smaller ones refuses a former leader's late writes.
 * @param grantedAt when this process was granted the term (its wall clock)
 * @since 0.1.0
 */
public record LeaderTerm(String election, long epoch, Instant grantedAt) {
}
