/**
 * The {@link dev.distlock.annotation.DistributedLock @DistributedLock} machinery: an infrastructure
 * {@link dev.distlock.aop.DistributedLockAdvisor advisor} whose thin
 * {@link dev.distlock.aop.DistributedLockInterceptor interceptor} finds the cached operation of a method
 * (parsed name, durations, label, return-type strategy; one per method and target class) and hands the call
 * to AOP-free support that evaluates the key, acquires, invokes and releases. The
 * {@link dev.distlock.aop.DistributedLockValidator validator} refuses bad declarations at startup;
 * {@link dev.distlock.aop.LockContext} exposes the running call's lock.
 */
package dev.distlock.aop;
