package dev.distlock.core;

import java.time.Duration;
import java.util.List;

/** The lock could not be acquired within the time the caller was willing to wait. */
public class LockTimeoutException extends DistributedLockException {

    private static final long serialVersionUID = 1L;

    private final Duration waited;
    /** Not serialized: what the backend said is for reading where the exception was thrown. */
    private final transient List<LockInfo> heldWhenTimedOut;

    /** Lock {@code lockName} was not acquired within {@code waited}. */
    public LockTimeoutException(String lockName, Duration waited) {
        this(lockName, waited, List.of());
    }

    /**
     * Lock {@code lockName} was not acquired within {@code waited}, while the backend said {@code heldWhenTimedOut}
     * of its names when the wait ran out; the message names each holder.
     */
    public LockTimeoutException(String lockName, Duration waited, List<LockInfo> heldWhenTimedOut) {
        this(lockName, waited, "Lock '" + lockName + "' could not be acquired within " + waited + ": it stayed held "
                + "by other owners", heldWhenTimedOut);
    }

    /** For callers that know more to say, e.g. which method wanted the lock. */
    protected LockTimeoutException(String lockName, Duration waited, String message) {
        this(lockName, waited, message, List.of());
    }

    /**
     * For callers that know more to say, e.g. which method wanted the lock; the holders the backend named when the
     * wait ran out are added to {@code message}.
     */
    protected LockTimeoutException(String lockName, Duration waited, String message,
            List<LockInfo> heldWhenTimedOut) {
        super(lockName, heldWhenTimedOut.isEmpty() ? message
                : message + " (when the wait ran out: " + WaitExplanation.describe(lockName, heldWhenTimedOut) + ")");
        this.waited = waited;
        this.heldWhenTimedOut = List.copyOf(heldWhenTimedOut);
    }

    /** How long the caller waited. */
    public Duration getWaited() {
        return waited;
    }

    /**
     * The lock's names that were held when the wait ran out, as the backend told it then ({@link LockRegistry#inspect},
     * read once, only on the timeout): who held each (application, host, pid, since) and how many waited. Empty if
     * nothing was read (the backend could not be asked, or every name was free again by then), and after the
     * exception was serialized.
     */
    public List<LockInfo> getHeldWhenTimedOut() {
        return heldWhenTimedOut == null ? List.of() : heldWhenTimedOut;
    }

    /**
     * What {@code registry} says of {@code names} when a wait for them ran out: the held ones, for
     * {@link #LockTimeoutException(String, Duration, List)}; names that cannot be read are left out.
     */
    public static List<LockInfo> heldNow(LockRegistry registry, List<String> names) {
        return WaitExplanation.read(registry, names);
    }
}
