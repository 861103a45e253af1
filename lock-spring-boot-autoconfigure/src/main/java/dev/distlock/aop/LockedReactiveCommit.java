package dev.distlock.aop;

import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.transaction.reactive.TransactionSynchronization;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * {@link LockedCommit} for a reactive transaction: before it commits, asks the backend about the holds of the annotated
 * subscriptions it runs in, without blocking; a lost one fails the commit, so the transaction rolls back.
 */
final class LockedReactiveCommit implements TransactionSynchronization, Ordered {

    private final List<CallHold> holds;

    LockedReactiveCommit(List<CallHold> holds) {
        this.holds = holds;
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
