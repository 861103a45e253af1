/**
 * Locks inside one JVM with the same semantics as the Redis ones, for tests:
 * {@link dev.distlock.memory.InMemoryLockRegistry} on a shareable {@link dev.distlock.memory.InMemoryLockStore}.
 */
package dev.distlock.memory;
