package dev.distlock.aop;

import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.core.Ordered;

/**
 * Applies the {@link DistributedLockInterceptor} to methods annotated with
 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} (directly, on an overridden or
 * implemented method, or on the class or its supertypes). Register it as an infrastructure bean
 * ({@code @Role(BeanDefinition.ROLE_INFRASTRUCTURE)}) so that Spring's auto-proxy creators pick it up
 * without AspectJ.
 *
 * <p>Its order defaults to {@link #DEFAULT_ORDER}, which runs it outside {@code @Transactional} and
 * {@code @Cacheable} (their advisors have the lowest precedence): the lock is taken before a transaction
 * begins and released after it ends.
 */
public final class DistributedLockAdvisor extends AbstractPointcutAdvisor {

    /** {@code Ordered.LOWEST_PRECEDENCE - 1000}: outside the transaction and cache advisors. */
    public static final int DEFAULT_ORDER = Ordered.LOWEST_PRECEDENCE - 1000;

    private final DistributedLockInterceptor interceptor;
    private final Pointcut pointcut;

    /** An advisor for the given interceptor, ordered {@link #DEFAULT_ORDER} until {@link #setOrder} says otherwise. */
    public DistributedLockAdvisor(DistributedLockInterceptor interceptor) {
        this(interceptor.operationSource(), interceptor);
    }

    /**
     * An advisor matching the methods {@code operations} finds locked, for the interceptor that runs them (sharing
     * those operations), ordered {@link #DEFAULT_ORDER} until {@link #setOrder} says otherwise.
     *
     * @since 0.1.0
     */
    public DistributedLockAdvisor(LockOperationSource operations, DistributedLockInterceptor interceptor) {
        this.interceptor = interceptor;
        this.pointcut = new LockOperationPointcut(operations);
        setOrder(DEFAULT_ORDER);
    }

    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return interceptor;
    }
}
