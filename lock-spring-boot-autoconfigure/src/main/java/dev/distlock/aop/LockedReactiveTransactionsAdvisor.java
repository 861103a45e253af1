package dev.distlock.aop;

import java.lang.reflect.Method;
import java.util.function.Supplier;
import org.aopalliance.aop.Advice;
import org.springframework.aop.Pointcut;
import org.springframework.aop.support.AbstractPointcutAdvisor;
import org.springframework.aop.support.StaticMethodMatcherPointcut;
import org.springframework.core.KotlinDetector;
import org.springframework.core.Ordered;
import org.springframework.transaction.interceptor.TransactionAttributeSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Applies {@link LockedReactiveTransactions} to the {@code @Transactional} methods that return a {@code Mono} or
 * {@code Flux} or are suspend functions. It must run inside the transaction advisor: both have the lowest precedence,
 * and distlock's auto-configuration registers this one after Spring Boot's transaction configuration, which keeps it
 * inside (and fails the startup if a bean's proxy has them the other way round).
 *
 * @since 0.1.0
 */
public final class LockedReactiveTransactionsAdvisor extends AbstractPointcutAdvisor {

    private static final long serialVersionUID = 1L;

    private final transient Supplier<TransactionAttributeSource> transactions;
    private final transient Advice advice = new LockedReactiveTransactions();
    private final transient Pointcut pointcut = new StaticMethodMatcherPointcut() {
        @Override
        public boolean matches(Method method, Class<?> targetClass) {
            return isReactive(method) && isTransactional(method, targetClass);
        }
    };

    /** @param transactions the application's transaction attribute source, or {@code null} when it has none */
    public LockedReactiveTransactionsAdvisor(Supplier<TransactionAttributeSource> transactions) {
        this.transactions = transactions;
        setOrder(Ordered.LOWEST_PRECEDENCE);
    }


    @Override
    public Pointcut getPointcut() {
        return pointcut;
    }

    @Override
    public Advice getAdvice() {
        return advice;
    }

    private boolean isTransactional(Method method, Class<?> targetClass) {
        TransactionAttributeSource source = transactions.get();
        return source != null && source.getTransactionAttribute(method, targetClass) != null;
    }

    /** Whether the method's result, as advisors see it, is a {@code Mono} or a {@code Flux}. */
    private static boolean isReactive(Method method) {
        Class<?> type = method.getReturnType();
        return type == Mono.class || type == Flux.class || KotlinDetector.isSuspendingFunction(method);
    }
}
