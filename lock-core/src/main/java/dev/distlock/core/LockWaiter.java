package dev.distlock.core;

/**
 * One entry of a lock's queue in the backend, as {@link LockRegistry#inspect} shows it: a registry (process) that
 * waits for the lock. A registry queues one entry per name however many of its callers wait for it, so each entry
 * is a process.
 *
 * @param instance the random id of the waiting registry (the one {@link LockHolder#instance()} shows), read from
 *        its queued token; for a token no distlock registry issued, the token up to its last colon (all of it if
 *        it has none)
 * @param process the waiting registry as it announced itself (application, host, pid, start); {@code null} if not
 *        known: not announced yet (a registry announces itself when it first waits for or holds a lock, and the
 *        announcement may trail its first queue entry by a moment), or not a distlock registry
 */
public record LockWaiter(String instance, LockHolder process) {
}
