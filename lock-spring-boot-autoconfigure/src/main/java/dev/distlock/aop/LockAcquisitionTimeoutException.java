package dev.distlock.aop;

import dev.distlock.core.LockTimeoutException;
import dev.distlock.core.LockInfo;
import java.time.Duration;
import java.util.List;

/**
 * A {@link LockTimeoutException} from a {@link dev.distlock.annotation.DistributedLock @DistributedLock}
 * call: its message names the lock's label, the evaluated key, the method and the time waited, and who held the lock
 * when the wait ran out ({@link #getHeldWhenTimedOut()}).
 * {@link #getLockName()} is the key.
 */
public class LockAcquisitionTimeoutException extends LockTimeoutException {

    private static final long serialVersionUID = 1L;

    private final String label;

    LockAcquisitionTimeoutException(String key, String label, String method, Duration wait, Duration waited,
            List<LockInfo> heldWhenTimedOut) {
        super(key, wait, "Lock '" + label + "' (key '" + key + "') could not be acquired within " + millis(wait)
                + " (waited " + millis(waited) + ") for " + method + ": another owner held it; the method was not "
                + "invoked", heldWhenTimedOut);
        this.label = label;
    }

    /** The lock's label (the declared lock, not the key). */
    public String getLabel() {
        return label;
    }

    private static String millis(Duration wait) {
        return wait.toMillis() + "ms";
    }
}
