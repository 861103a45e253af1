/** Leader election as Spring beans: {@link dev.distlock.election.spring.LeaderCandidate} and its events. */
package dev.distlock.election.spring;
