package dev.distlock.aop;

import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Keeps a reactive transaction from committing once the lock of the
 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} {@code Mono}, {@code Flux} or suspend function
 * it runs in is lost: the reactive counterpart of {@link LockedTransactions}. It runs inside {@code @Transactional}
 * ({@link LockedReactiveTransactionsAdvisor}), where the transaction has begun and the Reactor context carries
 * both the transaction and the holds of the enclosing annotated subscriptions: it registers a synchronization
 * that, before the commit, asks the backend about those holds without blocking; a lost one fails the commit, so
 * the transaction rolls back with a {@link LockLostBeforeCommitException}.
 *
 * <p>It covers {@code @Transactional} methods returning {@code Mono} or {@code Flux} and suspend functions, on the
 * annotated method itself or called inside its pipeline; {@link LockedTransactionalOperator} covers the
 * application's {@code TransactionalOperator} beans.
 *
 * @since 0.1.0
 */
public final class LockedReactiveTransactions implements MethodInterceptor {

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object result = invocation.proceed();
        if (result instanceof Mono<?> mono) {
            return Mono.deferContextual(context -> LockedReactiveCommit.register(context).then(mono));
        }
        if (result instanceof Flux<?> flux) {
            return Flux.deferContextual(context -> LockedReactiveCommit.register(context).thenMany(flux));
        }
        return result;
    }
}
