/**
 * The registry every backend shares: {@link dev.distlock.core.support.StoreLockRegistry} and its handles, a thin
 * façade over the engine ({@code dev.distlock.core.engine}), which implements re-entrancy, local queueing, waiting,
 * lease renewal and loss detection once, on top of a {@link dev.distlock.core.spi.LockStore} that only has to make
 * single operations atomic. A backend extends the registry and its builder.
 */
package dev.distlock.core.support;
