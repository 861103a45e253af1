package dev.distlock.core.engine.runtime;

import dev.distlock.core.runtime.EngineExecutors;
import java.time.Duration;

/**
 * The time of one {@link Acquisition}: how long it may wait and what is left of it, and its two timers on the
 * registry's shared timer, the end of the wait and the next wake-up (a poll, the holder's lease end). A timer fires
 * by submitting a step; once the registry's timer is closed, the step is submitted at once and finds the registry
 * closed. Used by the acquisition's steps only, one at a time.
 */
public final class WaitTimers {

    private final EngineRuntime runtime;
    private final long startNanos;
    private final long waitNanos;
    private EngineExecutors.Scheduled deadline;
    private EngineExecutors.Scheduled wakeUp;
    /** Whether the call sleeps: it waits for a notice, its poll or the store's listening. */
    private boolean sleeping;

    /** @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit */
    public WaitTimers(EngineRuntime runtime, long waitNanos) {
        this.runtime = runtime;
        this.startNanos = runtime.nanoTime();
        this.waitNanos = Math.max(0, waitNanos);
    }

    /** Whether the call waits at all (else it makes one try). */
    public boolean waits() {
        return waitNanos > 0;
    }

    public Duration waited() {
        return Duration.ofNanos(runtime.nanoTime() - startNanos);
    }

    /** What is left of the wait; {@link Long#MAX_VALUE} without a limit. */
    public long remainingNanos() {
        return waitNanos == Long.MAX_VALUE ? Long.MAX_VALUE : waitNanos - (runtime.nanoTime() - startNanos);
    }

    /** Whether {@code nanos} (monotonic clock) is after the end of a bounded wait. */
    public boolean isAfterDeadline(long nanos) {
        return waitNanos != Long.MAX_VALUE && nanos - (startNanos + waitNanos) > 0;
    }

    /** Submits {@code onDeadline} when the wait ends; once, and never for a wait without a limit. */
    public void armDeadline(Runnable onDeadline) {
        if (deadline == null && waitNanos != Long.MAX_VALUE) {
            deadline = after(Math.max(0, remainingNanos()), onDeadline);
        }
    }

    /** The call sleeps until {@link #wake}; {@code onWake} is submitted after {@code nanos} unless it woke before. */
    public void sleep(long nanos, Runnable onWake) {
        wake();
        sleeping = true;
        wakeUp = after(nanos, onWake);
    }

    /** Ends the sleep, cancelling its wake-up: true if the call was sleeping. */
    public boolean wake() {
        if (wakeUp != null) {
            wakeUp.cancel();
            wakeUp = null;
        }
        boolean slept = sleeping;
        sleeping = false;
        return slept;
    }

    public void cancelDeadline() {
        if (deadline != null) {
            deadline.cancel();
        }
    }

    /** Runs {@code task} on the timer after {@code nanos}; at once if the timer is closed (the registry closes). */
    public EngineExecutors.Scheduled after(long nanos, Runnable task) {
        return runtime.after(nanos, task);
    }
}
