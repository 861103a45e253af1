package dev.distlock.aop;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.transaction.NoTransactionException;
import org.springframework.transaction.reactive.TransactionSynchronization;
import org.springframework.transaction.reactive.TransactionSynchronizationManager;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * {@link LockedCommit} for a reactive transaction: before it commits, asks the backend about the holds of the annotated
 * subscriptions it runs in, without blocking; a lost one fails the commit, so the transaction rolls back.
 */
final class LockedReactiveCommit implements TransactionSynchronization, Ordered {

    private final List<CallHold> holds;

    private LockedReactiveCommit(List<CallHold> holds) {
        this.holds = holds;
    }

    /**
     * Registers the check of the holds {@code context} has (the enclosing annotated subscriptions') on the actual
     * transaction it runs in, if both.
     */
    static Mono<Void> register(ContextView context) {
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

    @Override
    public Mono<Void> beforeCommit(boolean readOnly) {
        if (readOnly) {
            return Mono.empty();
        }
        return Flux.fromIterable(holds).concatMap(hold -> Mono.fromCompletionStage(hold::verifyHeldAsync)
                .onErrorResume(failure -> {
                    RuntimeException stop = LockedCommit.stopping(hold, failure);
                    return stop != null ? Mono.error(stop) : Mono.empty();
                })).then();
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE; // after the application's own checks: the last word before the commit
    }

    /** Equal for the same holds: a transaction that several guarded methods take part in checks them once. */
    @Override
    public boolean equals(Object other) {
        return other instanceof LockedReactiveCommit commit && commit.holds.equals(holds);
    }

    @Override
    public int hashCode() {
        return holds.hashCode();
    }
}
