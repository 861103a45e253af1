/**
 * The public lock API: {@link dev.distlock.core.LockRegistry} hands out {@link dev.distlock.core.FencedLock}s
 * by name; {@link dev.distlock.core.Lease} says how long a hold lives; {@link dev.distlock.core.LockListener}
 * reports what happens to holds; every failure is a {@link dev.distlock.core.DistributedLockException}.
 */
package dev.distlock.core;
