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
     * Asks the backend about each hold, unless the transaction is read-only. When it cannot answer, the hold's own lease decides: while it runs, no other
     * owner can have been given the lock by the backend's rules.
     *
     * @throws LockLostBeforeCommitException for the first hold found lost: the transaction rolls back
     */
    @Override
    public void beforeCommit(boolean readOnly) {
        if (readOnly) {
            return; // it writes nothing the lock protects: no round trip, no failure
        }
        for (CallHold hold : holds) {
            try {
                hold.verifyHeld();
            } catch (LockLostException lost) {
                throw new LockLostBeforeCommitException(hold.key(), hold.label(), lost);
            } catch (LockBackendException unreachable) {
                if (!hold.isHeld()) {
                    throw new LockLostBeforeCommitException(hold.key(), hold.label(), new LockLostException(
                            hold.key(), "its lease ran out while the backend could not be asked ("
                                    + unreachable.getMessage() + ")"));
                }
            }
        }
    }

    @Override
    public int getOrder() {
        return LOWEST_PRECEDENCE; // after the application's own checks: the last word before the commit
    }
}
