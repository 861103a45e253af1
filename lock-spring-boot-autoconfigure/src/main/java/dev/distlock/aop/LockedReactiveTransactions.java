package dev.distlock.aop;

import java.util.List;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

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
 * annotated method itself or called inside its pipeline; not transactions begun with a {@code TransactionalOperator},
 * which no advisor sees.
 *
 * @since 0.1.0
 */
public final class LockedReactiveTransactions implements MethodInterceptor {

    @Override
    public Object invoke(MethodInvocation invocation) throws Throwable {
        Object result = invocation.proceed();
        if (result instanceof Mono<?> mono) {
            return Mono.deferContextual(context -> guard(context).then(mono));
        }
        if (result instanceof Flux<?> flux) {
            return Flux.deferContextual(context -> guard(context).thenMany(flux));
        }
        return result;
    }

    /** Registers the commit check of the holds {@code context} has on the actual transaction it runs in, if both. */
    private static Mono<Void> guard(ContextView context) {
        List<CallHold> holds = ReactiveLockContext.holds(context);
        if (holds.isEmpty()) {
            return Mono.empty();
        }
        return TransactionSynchronizationManager.forCurrentTransaction()
                .doOnNext(transaction -> {
                    if (transaction.isActualTransactionActive() && transaction.isSynchronizationActive()) {
                        transaction.registerSynchronization(new LockedReactiveCommit(holds));
                    }
                })
                .onErrorResume(NoTransactionException.class, none -> Mono.empty())
                .then();
    }
}
