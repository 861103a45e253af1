package dev.distlock.core.engine.acquire;

import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.Waiters;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.runtime.WaitTimers;
import dev.distlock.core.spi.HandOffNotices;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * An acquisition's wait between its tries in the store ({@link StoreTries}'s base): its place among the registry's
 * waiters, the sleep until the next poll or the holder's lease end, and what wakes it early: a hand-off notice (at
 * once, or once the try in flight is answered), the caller's deadline, the registry's close. The wait is the same
 * whatever the tries decided to wait for, so it is kept apart from them; what a wake-up leads to, another try or the
 * end of the wait, is theirs ({@link #woken}).
 */
abstract class WaitBetweenTries extends StepMachine implements Waiters.Waiter, Attempt.OnNotice {

    final Engine engine;
    final LockRequest request;
    final WaitTimers time;
    final boolean waits;

    // written by steps only, which run one at a time
    /** Whether a notice came while a try was in flight. */
    boolean noticeMissed;
    /** What let the latest try happen: the first try, a notice, a timer, the gate's hand-off. */
    WaitEnd waitEnd = WaitEnd.IMMEDIATE;

    WaitBetweenTries(Engine engine, LockRequest request, long waitNanos, Executor steps) {
        super(steps);
        this.engine = engine;
        this.request = request;
        this.time = new WaitTimers(engine.runtime(), waitNanos);
        this.waits = time.waits();
    }

    /** The wait ran out. */
    abstract void deadlinePassed() throws InterruptedException;

    /** Woken from a sleep, {@link #waitEnd} set to what woke it: another try, or the end of the wait. */
    abstract void woken() throws InterruptedException;

    /** A waiting call counts among the registry's waiters (or finds it closed); a single try checks it is open. */
    final void admit() {
        if (waits) {
            engine.waiters().admit(this, request.name());
        } else {
            engine.checkOpen(request.name());
        }
    }

    /** A waiting call no longer counts among the registry's waiters. */
    final void leaveWaiters() {
        if (waits) {
            engine.waiters().remove(this);
        }
    }

    /** The registry closes: a waiting call withdraws. */
    @Override
    public void wakeForClose() {
        submit(() -> wakeIfSleeping(WaitEnd.POLL));
    }

    /** A hand-off notice: wakes a sleeping attempt now, or one whose try is in flight once it is answered. */
    @Override
    public final void noticeArrived() {
        submit(() -> {
            if (inFlight()) {
                noticeMissed = true;
            } else {
                wakeIfSleeping(WaitEnd.NOTICE);
            }
        });
    }

    /**
     * The registry does not hear hand-off notices yet: one given before it does would go unnoticed until the next
     * poll, so it sleeps until they are heard, or a poll interval at most.
     */
    final void sleepUntilNoticesHeard(HandOffNotices notices) {
        sleep(Math.min(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(engine.maxPollMillis())), WaitEnd.POLL);
        notices.listen().whenComplete((heard, error) -> submit(() -> wakeIfSleeping(WaitEnd.POLL)));
    }

    /**
     * Sleeps until the next poll, or the holder's lease end ({@code holderLeaseMillis}) if that comes first, at most
     * {@code remaining}; at once awake if a notice came while the try was in flight.
     */
    final void sleepUntilNextPoll(long remaining, long holderLeaseMillis) throws InterruptedException {
        long pause = HoldClock.pollPauseNanos(engine.runtime().random(), engine.maxPollMillis(), holderLeaseMillis);
        sleep(Math.min(remaining, pause),
                HoldClock.pausesUntilLeaseEnd(pause, holderLeaseMillis) ? WaitEnd.LEASE_END : WaitEnd.POLL);
        if (noticeMissed) {
            noticeMissed = false;
            wakeIfSleeping(WaitEnd.NOTICE);
        }
    }

    /** Sleeps for {@code nanos}; the timer's wake-up is {@code timerEnd} (the poll or the holder's lease end). */
    private void sleep(long nanos, WaitEnd timerEnd) {
        time.sleep(nanos, () -> submit(() -> wakeIfSleeping(timerEnd)));
    }

    /**
     * Woken by a notice, the poll timer, the deadline or the registry's close ({@code by}, what the wait ended with
     * should the next try get the lock), unless no longer sleeping: {@link #woken} decides what follows.
     */
    final void wakeIfSleeping(WaitEnd by) throws InterruptedException {
        if (!time.wake()) {
            return;
        }
        waitEnd = by;
        woken();
    }

    final void armDeadline() {
        time.armDeadline(() -> submit(this::deadlinePassed));
    }

    final long remainingNanos() {
        return time.remainingNanos();
    }
}
