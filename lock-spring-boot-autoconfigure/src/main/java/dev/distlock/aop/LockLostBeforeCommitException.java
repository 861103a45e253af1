package dev.distlock.aop;

import dev.distlock.core.LockLostException;

/**
 * The lock of a {@link dev.distlock.annotation.DistributedLock @DistributedLock} call was found lost as the
 * transaction it began was about to commit, so the transaction was rolled back instead ({@link LockedTransactions},
 * {@link LockedReactiveTransactions}).
 *
 * @since 0.1.0
 */
public class LockLostBeforeCommitException extends LockLostException {

    private static final long serialVersionUID = 1L;

    /**
     * @param key the lock's evaluated name
     * @param label the lock's label
     * @param lost how the loss was found
     */
    public LockLostBeforeCommitException(String key, String label, LockLostException lost) {
        super(key, lost.reason() + " (lock label '" + label + "'); found as its transaction was about to commit, "
                + "and the transaction was rolled back", lost);
    }
}
