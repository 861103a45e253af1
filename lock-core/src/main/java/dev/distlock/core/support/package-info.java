/**
 * The machinery every registry shares: {@link dev.distlock.core.support.StoreLockRegistry} implements
 * re-entrancy, local queueing, waiting, lease renewal and loss detection once, on top of a
 * {@link dev.distlock.core.spi.LockStore} that only has to make single operations atomic.
 */
package dev.distlock.core.support;

