/**
 * Leader election on a lock: {@link dev.distlock.election.LeaderElection}, one leader at a time per election name,
 * each term with an epoch (its fencing token), told to {@link dev.distlock.election.LeaderListener}s.
 */
package dev.distlock.election;
