package dev.distlock.core.engine.store;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.FailureClassifier;

/**
 * What interrupts and failed tries mean for one {@link Acquisition}: an interrupt ends an interruptible call and is
 * remembered by an uninterruptible one (its caller sets the flag again at the end); a transient failure is retried
 * within the wait ({@link TransientRetries}), ends a call that saw the name held as a timeout, and is otherwise an
 * error naming the lock. The verdicts are thrown from the acquisition's steps: {@link Restart} (go on with a new
 * token), {@link OutOfTime} (end without the lock), or the error itself.
 */
public final class TryFailures {

    private final String name;
    private final FailureClassifier classifier;
    private final boolean interruptible;
    private final TransientRetries.Reporter reporter;
    private final EngineRuntime runtime;
    /** Made at the first transient failure: most calls never meet one, and this saves them the allocation. */
    private TransientRetries retries;
    /** Whether a try found the name held: transient errors after it end the call as a timeout, not an error. */
    private boolean sawHeld;
    /**
     * An interrupt that came while the caller waited between steps: an uninterruptible acquisition waits through it,
     * and an interruptible one may have taken the lock in a step already queued before it ends the call.
     */
    private volatile boolean interrupted;

    public TryFailures(String name, FailureClassifier classifier, EngineRuntime runtime, boolean interruptible,
            TransientRetries.Reporter reporter) {
        this.runtime = runtime;
        this.name = name;
        this.classifier = classifier;
        this.interruptible = interruptible;
        this.reporter = reporter;
    }

    /**
     * Whether an interrupt came that the call's outcome does not tell (set again on the caller's thread unless the
     * call ends with {@link InterruptedException}).
     */
    public boolean wasInterrupted() {
        return interrupted;
    }

    /**
     * The caller's thread was interrupted while it waited: the error that ends an interruptible call, or
     * {@code null} for an uninterruptible one, which remembers it for the caller.
     */
    public InterruptedException waitInterrupted(InterruptedException interrupt) {
        interrupted = true; // an interruptible call that took the lock meanwhile still tells its caller
        if (!interruptible) {
            return null;
        }
        InterruptedException error = new InterruptedException("Interrupted while acquiring lock '" + name + "'");
        error.initCause(interrupt);
        return error;
    }

    /** Before a try on this thread: a pending interrupt ends an interruptible call, else it is remembered. */
    public void beforeTry() throws InterruptedException {
        if (Thread.interrupted()) {
            if (interruptible) {
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'");
            }
            interrupted = true;
        }
    }

    /**
     * What a try's failure means, to be thrown: a retry, the end of the wait or an error; an interrupt of an
     * interruptible call is thrown here.
     *
     * @param remainingNanos what is left of the caller's wait
     */
    public RuntimeException classified(Throwable failure, long remainingNanos) throws InterruptedException {
        if (Thread.interrupted() || StoreCalls.brokenByInterrupt(failure)) {
            if (interruptible) {
                InterruptedException interrupt = new InterruptedException("Interrupted while acquiring lock '" + name
                        + "'; the try in flight is cleaned up in the background");
                interrupt.initCause(failure);
                throw interrupt;
            }
            interrupted = true;
            return Restart.INSTANCE;
        }
        if (failure instanceof RuntimeException runtime && classifier.classify(runtime).isTransient()) {
            if (retries == null) {
                retries = new TransientRetries(this.runtime, reporter);
            }
            retries.failed(runtime);
            if (retries.retryWithin(remainingNanos)) {
                return Restart.INSTANCE;
            }
            if (sawHeld) {
                return OutOfTime.INSTANCE; // the name was held when the store last answered: a busy lock's timeout
            }
        }
        return new LockBackendException(name, "acquire", failure);
    }

    /**
     * What it means that the call carrying a try sent for this acquisition by another caller (a release that handed
     * it the gate, {@link LocalHandOff}) failed: nothing about this acquisition. That failure (the other caller's
     * interrupt, a cancellation, its client's error) is the other caller's; here the try is only unanswered, so it
     * starts over with a new token while the wait lasts (the old one is cleaned up), and ends without the lock once the
     * wait has run out. No interrupt is recorded, nothing counts towards the transient errors.
     *
     * @param remainingNanos what is left of the caller's wait
     */
    public RuntimeException carrierFailed(long remainingNanos) {
        return remainingNanos > 0 ? Restart.INSTANCE : OutOfTime.INSTANCE;
    }

    /** An answer, counted: the error streak ends, and an interrupt that raced with a taken lock gives it back. */
    public AcquireResult answered(AcquireResult answer) throws InterruptedException {
        if (retries != null) {
            retries.answered();
        }
        sawHeld |= !answer.acquired();
        if (answer.acquired() && interruptible && Thread.interrupted()) {
            // the lock was taken as the interrupt came: the clean-up releases it again
            throw new InterruptedException("Interrupted while acquiring lock '" + name + "'; it is released again");
        }
        return answer;
    }

    /** The pause before the retry the last failure asked for (0 if none), once. */
    public long takePause() {
        return retries != null ? retries.takePause() : 0;
    }

    /** Thrown inside an acquisition whose wait ran out during transient errors after the name was seen held. */
    public static final class OutOfTime extends RuntimeException {

        private static final long serialVersionUID = 1L;
        public static final OutOfTime INSTANCE = new OutOfTime();

        private OutOfTime() {
            super("out of time", null, false, false);
        }
    }

    /** Thrown inside an acquisition to start over with a new token. */
    public static final class Restart extends RuntimeException {

        private static final long serialVersionUID = 1L;
        public static final Restart INSTANCE = new Restart();

        private Restart() {
            super("restart", null, false, false);
        }
    }
}
