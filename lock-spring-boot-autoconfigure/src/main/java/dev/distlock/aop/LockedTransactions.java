package dev.distlock.aop;

import org.springframework.transaction.TransactionExecution;
import org.springframework.transaction.TransactionExecutionListener;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * Keeps a transaction from committing once the lock of the
 * {@link dev.distlock.annotation.DistributedLock @DistributedLock} call it runs in is lost. Registered on a transaction manager, it looks, as each transaction
 * begins, at the annotated calls running on the thread; before that transaction commits, it asks the backend
 * whether their holds are still theirs ({@link LockedCommit}), and a lost one fails the commit, so the transaction
 * rolls back with a {@link LockLostBeforeCommitException}.
 *
 * <p>It covers transactions that begin inside the locked call (the default advisor order puts the lock outside
 * {@code @Transactional}) on a thread-bound transaction manager (JDBC, JPA); reactive transactions have
 * {@link LockedReactiveTransactions}. A write that
 * already left the transaction (a message sent, another system called) is not undone: that is what fencing tokens are
 * for.
 *
 * @since 0.1.0
 */
public final class LockedTransactions implements TransactionExecutionListener {

    @Override
    public void afterBegin(TransactionExecution transaction, Throwable beginFailure) {
        if (beginFailure != null || !TransactionSynchronizationManager.isSynchronizationActive()) {
            return;
        }
        LockedCommit commit = LockedCommit.of(CallStack.holds());
        if (commit != null) {
            TransactionSynchronizationManager.registerSynchronization(commit);
        }
    }
}
