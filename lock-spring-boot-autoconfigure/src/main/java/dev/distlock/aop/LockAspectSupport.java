package dev.distlock.aop;

import dev.distlock.core.LockRegistry;
import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.util.function.SingletonSupplier;

/**
 * Locks the calls of {@link dev.distlock.annotation.DistributedLock @DistributedLock} methods, for whatever brings
 * them here: the proxies' {@link DistributedLockInterceptor} and the AspectJ aspect of {@code dev.distlock:lock-aspectj}
 * share one instance, as Spring's cache interceptor and cache aspect share {@code CacheAspectSupport}. Free of AOP
 * types: it finds the method's cached operation, evaluates the key, and lets the operation's return-type strategy
 * acquire, invoke and release, telling the observers (meters, observations) on the way; a transaction begun inside
 * the call sees the call's hold.
 *
 * @since 0.1.0
 */
public final class LockAspectSupport {

    private final LockOperationSource operations;
    private final LockExecution execution;

    /**
     * @param operations the annotated methods' operations, shared with the startup validator (and the advisor)
     * @param registry the lock registry, asked for at the first locked call (advice is created early, before the
     *        registry can be)
     * @param observer the observer of every call's acquire and hold, asked for at the first locked call
     * @param beanFactory where a {@code CompletionStage} method's executor is found ({@code applicationTaskExecutor})
     */
    public LockAspectSupport(LockOperationSource operations, Supplier<LockRegistry> registry,
            Supplier<LockCallObserver> observer, BeanFactory beanFactory) {
        this.operations = operations;
        this.execution = new LockExecution(SingletonSupplier.of(registry), operations.keys(),
                SingletonSupplier.of(observer), SingletonSupplier.of(() -> MethodExecutors.find(beanFactory)));
    }

    /**
     * Runs a call of {@code method} under its lock, or just runs it when the method is not locked.
     *
     * @param method the called method, as declared where the call landed
     * @param targetClass the class of the object called (the declaring class for a static method)
     * @param target the object called, {@code null} for a static method; {@code #root.target} in names
     * @param args the call's arguments
     * @param invoker runs the method's body; a {@code Mono}/{@code Flux} method's invoker is called again for each
     *        subscription
     * @return what the method returned, or what the operation's strategy makes of it (a {@code Mono} that locks on
     *         subscription, {@code null} for a skipped call)
     * @throws Throwable what the method threw, or why the lock was not taken
     */
    public Object invoke(Method method, Class<?> targetClass, Object target, Object[] args, MethodInvoker invoker)
            throws Throwable {
        LockOperation operation = operations.find(method, targetClass);
        if (operation == null) {
            return invoker.invoke();
        }
        return execution.execute(operation, args, target, invoker);
    }

    /** The operation of {@code method} called on {@code targetClass}, or {@code null}: for the interceptor. */
    LockOperation find(Method method, Class<?> targetClass) {
        return operations.find(method, targetClass);
    }

    /** Runs the call of an operation found with {@link #find}: for the interceptor, which picks the invoker by it. */
    Object execute(LockOperation operation, Object target, Object[] args, MethodInvoker invoker) throws Throwable {
        return execution.execute(operation, args, target, invoker);
    }

    /** The operation cache, shared with the advisor's pointcut and the startup validator. */
    LockOperationSource operationSource() {
        return operations;
    }
}
