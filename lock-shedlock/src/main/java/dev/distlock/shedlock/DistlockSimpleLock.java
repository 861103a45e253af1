package dev.distlock.shedlock;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.DistributedLockException;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;
import net.javacrumbs.shedlock.core.ClockProvider;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One ShedLock lock over a distlock hold, used once, as ShedLock's own locks are: {@link #unlock()} or
 * {@link #extend} (which hands over to a new {@code SimpleLock} on the same hold) and nothing after it; a second call
 * throws {@link IllegalStateException}.
 *
 * <p>A lock that is no longer this holder's (its {@code lockAtMostFor} ran out, or another owner has it) is released
 * as ShedLock's Redis providers release it: {@code unlock()} does nothing and {@code extend} gives nothing, so a job
 * that overran its window ends with its own result or failure. The registry has reported the loss already (a WARN
 * and {@code LockListener.onLost}), and the other owner's lock is left as it is.
 */
final class DistlockSimpleLock implements SimpleLock {

    private static final Logger log = LoggerFactory.getLogger(DistlockSimpleLock.class);

    /** Where the one use of this lock stands. */
    private enum Use {
        /** Neither unlocked nor extended yet. */
        OPEN,
        /** An {@code extend} is under way; it leaves the lock open again if the store failed. */
        EXTENDING,
        /** Unlocked, or extended (the new lock carries on). */
        SPENT
    }

    private final DetachedLock hold;
    private final ShedLockWindow window;
    private final AtomicReference<Use> use = new AtomicReference<>(Use.OPEN);

    DistlockSimpleLock(DetachedLock hold, ShedLockWindow window) {
        this.hold = hold;
        this.window = window;
    }

    /**
     * Releases the lock, or leaves it taken for what is left of {@code lockAtLeastFor}. Does nothing to a lock that
     * is no longer this holder's.
     *
     * @throws IllegalStateException if this lock was unlocked or extended already
     * @throws dev.distlock.core.LockBackendException if the store failed; distlock finishes the release in the
     *         background (the lock expires with its lease at the latest), so this lock is spent all the same
     */
    @Override
    public void unlock() {
        if (!use.compareAndSet(Use.OPEN, Use.SPENT)) {
            throw spent();
        }
        Duration kept = window.keptAfterUnlock();
        try {
            if (kept.isZero()) {
                hold.unlock();
            } else {
                hold.unlockAfter(kept);
            }
        } catch (LockLostException notOurs) {
            log.debug("Lock '{}' was no longer this holder's at unlock: nothing to release", hold.name(), notOurs);
        }
    }

    /**
     * The lock with a new {@code lockAtMostFor} and {@code lockAtLeastFor}, both from now; empty if it is no longer
     * this holder's or its {@code lockAtMostFor} has passed (the lock is then released, if it is still this holder's).
     * This lock is spent once a new one (or nothing) is returned.
     *
     * @throws IllegalArgumentException if {@code lockAtLeastFor} is longer than {@code lockAtMostFor}, or either is
     *         negative; this lock stays usable
     * @throws IllegalStateException if this lock was unlocked or extended already
     * @throws dev.distlock.core.LockBackendException if the store failed; this lock stays usable, and distlock
     *         trusts the hold for the shorter of its old and new lease
     */
    @Override
    public Optional<SimpleLock> extend(Duration lockAtMostFor, Duration lockAtLeastFor) {
        LockConfiguration next = new LockConfiguration(ClockProvider.now(), hold.name(), lockAtMostFor,
                lockAtLeastFor);
        if (!use.compareAndSet(Use.OPEN, Use.EXTENDING)) {
            throw spent();
        }
        Use after = Use.OPEN;
        try {
            Optional<SimpleLock> extended = extendNow(next);
            after = Use.SPENT;
            return extended;
        } finally {
            use.set(after);
        }
    }

    private Optional<SimpleLock> extendNow(LockConfiguration next) {
        if (window.hasEnded()) {
            releaseQuietly();
            return Optional.empty();
        }
        ShedLockWindow nextWindow = ShedLockWindow.startingNow(next);
        try {
            hold.extend(nextWindow.lease());
        } catch (LockLostException notOurs) {
            releaseQuietly();
            return Optional.empty();
        }
        return Optional.of(new DistlockSimpleLock(hold, nextWindow));
    }

    /**
     * Releases a hold that ShedLock counts as expired, in case the store still has it under this holder (its lease
     * could not be cut to a short window, or a clock ran apart): nobody waits for it, and a failed release is
     * finished in the background by distlock.
     */
    private void releaseQuietly() {
        try {
            hold.unlock();
        } catch (DistributedLockException ended) {
            log.debug("Releasing the expired lock '{}' found it gone or failed; it expires with its lease",
                    hold.name(), ended);
        }
    }

    private IllegalStateException spent() {
        return new IllegalStateException("Lock '" + hold.name() + "' was unlocked or extended already: a ShedLock "
                + "lock is used once (extend returns the lock to use next)");
    }

    @Override
    public String toString() {
        return "SimpleLock[" + hold.name() + ", fencing token " + hold.fencingToken() + ", " + use.get() + "]";
    }
}
