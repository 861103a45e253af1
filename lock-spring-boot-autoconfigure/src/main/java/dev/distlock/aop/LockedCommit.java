package dev.distlock.aop;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import java.util.List;
import org.springframework.transaction.support.TransactionSynchronization;

/** Before a transaction commits, verifies the holds of the annotated calls it began in; a lost one fails the commit. */
final class LockedCommit implements TransactionSynchronization {

    private final List<CallHold> holds;

    private LockedCommit(List<CallHold> holds) {
        this.holds = holds;
    }

    /** The check of {@code holds}, or {@code null} when there are none. */
    static LockedCommit of(List<CallHold> holds) {
        return holds.isEmpty() ? null : new LockedCommit(holds);
    }

    /**
     * Asks the backend about each hold, unless the transaction is read-only (it writes nothing the lock protects: no
     * round trip, no failure).
     *
     * @throws LockLostBeforeCommitException for the first hold found lost: the transaction rolls back
     */
    @Override
    public void beforeCommit(boolean readOnly) {
        if (readOnly) {
            return;
        }
        for (CallHold hold : holds) {
            try {
                hold.verifyHeld();
            } catch (RuntimeException failure) {
                RuntimeException stop = stopping(hold, failure);
                if (stop != null) {
                    throw stop;
                }
            }
        }
    }

    /**
     * What a failed verification of {@code hold} means for the commit: the exception that stops it, or {@code null}
     * when it may go on. When the backend cannot answer, the hold's own lease decides: while it runs, no other owner
     * can have been given the lock by the backend's rules.
     */
    static RuntimeException stopping(CallHold hold, Throwable failure) {
        if (failure instanceof LockLostException lost) {
            return new LockLostBeforeCommitException(hold.key(), hold.label(), lost);
        }
        if (failure instanceof LockBackendException unreachable) {
            return hold.isHeld() ? null : new LockLostBeforeCommitException(hold.key(), hold.label(),
                    new LockLostException(hold.key(), "its lease ran out while the backend could not be asked ("
                            + unreachable.getMessage() + ")"));
        }
        return failure instanceof RuntimeException unexpected ? unexpected : new IllegalStateException(failure);
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE; // after the application's own checks: the last word before the commit
    }
}
