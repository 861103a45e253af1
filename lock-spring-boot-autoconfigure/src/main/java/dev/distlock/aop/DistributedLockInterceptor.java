package dev.distlock.aop;

import dev.distlock.core.LockRegistry;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.aop.ProxyMethodInvocation;
import org.springframework.aop.framework.AopProxyUtils;
import org.springframework.beans.factory.BeanFactory;

/**
 * The advice behind {@link dev.distlock.annotation.DistributedLock @DistributedLock}: looks up the cached
 * operation of the called method and hands the call to the AOP-free {@link LockAspectSupport}.
 */
public final class DistributedLockInterceptor implements MethodInterceptor {

    private final LockAspectSupport support;

    /**
     * @param registry the lock registry, asked for at the first locked call (advisors are created early,
     *        before the registry can be)
     * @param defaults wait, lease and renewal for annotations that leave them empty
     * @param beanFactory resolves {@code @bean} references in names and {@code ${...}} placeholders in
     *        {@code timeout}/{@code lease}
     */
    public DistributedLockInterceptor(Supplier<LockRegistry> registry, LockDefaults defaults, BeanFactory beanFactory) {
        this(registry, defaults, beanFactory, () -> LockCallObserver.NONE);
    }

    /**
     * Like {@link #DistributedLockInterceptor(Supplier, LockDefaults, BeanFactory)}, with an observer of every
     * call's acquire and hold (asked for at the first locked call, like the registry).
     *
     * @since 0.1.0
     */
    public DistributedLockInterceptor(Supplier<LockRegistry> registry, LockDefaults defaults, BeanFactory beanFactory,
            Supplier<LockCallObserver> observer) {
        this(new LockOperationSource(defaults, beanFactory), registry, observer, beanFactory);
    }

    /**
     * An interceptor for the operations of {@code operations}, shared with the advisor and the validator.
     *
     * @param operations the annotated methods' operations
     * @param registry the lock registry, asked for at the first locked call
     * @param observer the observer of every call's acquire and hold, asked for at the first locked call
     * @param beanFactory where a {@code CompletionStage} method's executor is found ({@code applicationTaskExecutor})
     * @since 0.1.0
     */
    public DistributedLockInterceptor(LockOperationSource operations, Supplier<LockRegistry> registry,
            Supplier<LockCallObserver> observer, BeanFactory beanFactory) {
        this(new LockAspectSupport(operations, registry, observer, beanFactory));
    }

    /**
     * An interceptor handing the calls to {@code support}, which an AspectJ aspect may share.
     *
     * @since 0.1.0
     */
    public DistributedLockInterceptor(LockAspectSupport support) {
        this.support = support;
    }

    /** Runs the invocation under its lock, or just proceeds when the method is not annotated. */
    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Method method = invocation.getMethod();
        Object target = invocation.getThis();
        Class<?> targetClass = target != null ? AopProxyUtils.ultimateTargetClass(target) : method.getDeclaringClass();
        LockOperation operation = support.find(method, targetClass);
        if (operation == null) {
            return invocation.proceed();
        }
        return support.execute(operation, target, invocation.getArguments(), invoker(invocation, operation));
    }

    /** The operation cache, shared with the advisor's pointcut and the startup validator. */
    LockOperationSource operationSource() {
        return support.operationSource();
    }

    private static MethodInvoker invoker(MethodInvocation invocation, LockOperation operation) {
        if (operation.returnHandler() != null && operation.returnHandler().invokesPerSubscription()
                && invocation instanceof ProxyMethodInvocation proxyInvocation) {
            // each subscription runs the rest of the advice chain afresh, on a clone of the untouched invocation
            return () -> proxyInvocation.invocableClone().proceed();
        }
        return invocation::proceed;
    }
}
