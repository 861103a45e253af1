package dev.distlock.aop;

import org.springframework.transaction.TransactionException;
import org.springframework.transaction.reactive.TransactionCallback;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A {@link TransactionalOperator} whose transactions, begun inside the pipeline of a
 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} {@code Mono}, {@code Flux} or suspend function, do
 * not commit once its lock is lost, as {@link LockedReactiveTransactions} does for {@code @Transactional}: the work
 * handed to the operator first registers the commit check, inside the transaction. distlock's auto-configuration
 * wraps the application's {@code TransactionalOperator} beans in it; wrap one made by hand with {@link #of}.
 *
 * @since 0.1.0
 */
public final class LockedTransactionalOperator implements TransactionalOperator {

    private final TransactionalOperator operator;

    private LockedTransactionalOperator(TransactionalOperator operator) {
        this.operator = operator;
    }

    /** {@code operator} with the commit check; {@code operator} itself if it has it already. */
    public static TransactionalOperator of(TransactionalOperator operator) {
        return operator instanceof LockedTransactionalOperator ? operator : new LockedTransactionalOperator(operator);
    }

    @Override
    public <T> Flux<T> transactional(Flux<T> flux) {
        return operator.transactional(Flux.deferContextual(context -> LockedReactiveCommit.register(context)
                .thenMany(flux)));
    }

    @Override
    public <T> Mono<T> transactional(Mono<T> mono) {
        return operator.transactional(Mono.deferContextual(context -> LockedReactiveCommit.register(context)
                .then(mono)));
    }

    @Override
    public <T> Flux<T> execute(TransactionCallback<T> action) throws TransactionException {
        return operator.execute(transaction -> Flux.deferContextual(context -> LockedReactiveCommit.register(context)
                .thenMany(action.doInTransaction(transaction))));
    }
}
