/**
 * Locks over several independent Redis servers with the Redlock algorithm:
 * {@link dev.distlock.redlock.RedlockLockRegistry}.
 */
package dev.distlock.redlock;
