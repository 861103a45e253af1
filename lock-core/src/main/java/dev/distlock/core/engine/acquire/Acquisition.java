package dev.distlock.core.engine.acquire;

import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.Waiters;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.hold.HoldLifecycle;
import dev.distlock.core.engine.hold.NameGate;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.runtime.WaitTimers;
import dev.distlock.core.engine.store.TryFailures;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.HandOffNotices;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * One call that wants the lock, as a state machine driven by events. It enters the local queue (the name's
 * {@link NameGate}), then tries the store with a fresh token ({@link Attempt}). If the lock is busy it queues in
 * the store and waits until a release hands the lock to it, asking the store again when the poll interval (or the
 * holder's lease) passes without a notice. Waiting is a pending future and a timer, never a parked thread: the
 * gate, a hand-off notice, the poll timer, the caller's deadline, an interrupt or cancellation and the registry's
 * close each submit a step to the acquisition's executor, which runs steps one at a time ({@link StepRunners});
 * a step that comes after the end does nothing.
 *
 * <p>Every way out without the lock leaves nothing behind: a try whose reply was lost (a failure, a timeout, an
 * interrupt during the call) may have queued the token or even taken the lock, so the token is abandoned in the
 * background ({@link Cleanup}) and never used again; an uninterruptible {@code lock()} then starts over with a new
 * token. A blocking caller's tries go out on its own thread, so an interrupt reaches a try in flight too: that try
 * counts as unanswered and is cleaned up like a lost reply. A reply that took the lock but came too late to count
 * ({@link HoldClock#validEnough}) gives its token up too; while the wait lasts, a new token tries after a pause as
 * long as that reply took (at most the poll interval), so replies that keep coming late are never answered by a
 * stream of tries.
 */
public final class Acquisition extends StepMachine
        implements StepRunners.Awaited, NameGate.Caller, Waiters.Waiter, HoldLifecycle.Acquired {

    private final Engine engine;
    private final LockRequest request;
    private final WaitTimers time;
    private final boolean waits;
    /** Whether its tries queue: it waits, and the store has a queue. */
    private final boolean queues;
    private final boolean async;
    private final GatePass gate;
    private final TryFailures failures;
    private final CallEvents events;
    /** The token of the first try, made up front so that a predecessor handing over the gate can send that try. */
    private final String firstToken;

    // written by steps only, which run one at a time
    private Attempt attempt;
    /** Whether a notice came while a try was in flight. */
    private boolean noticeMissed;
    /** Whether the last answer came after the wait: the attempt is cleaned up in the background. */
    private boolean late;
    /** Whether the first attempt ended without the lock and another began: it has a token of its own. */
    private boolean restarted;
    /** What let the latest try happen: the first try, a notice, a timer, the gate's hand-off. */
    private WaitEnd waitEnd = WaitEnd.IMMEDIATE;

    /**
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt of the thread running the steps ends the call
     * @param async whether commands are sent without blocking the step's thread (for non-blocking callers), their
     *        answers handled by later steps; else each is answered within its step
     */
    public Acquisition(Engine engine, LockRequest request, long waitNanos, boolean interruptible,
            boolean async, Executor steps) {
        super(steps);
        this.engine = engine;
        this.request = request;
        this.time = new WaitTimers(engine.runtime(), waitNanos);
        this.waits = time.waits();
        this.queues = waits && engine.queue() != null;
        this.async = async;
        this.firstToken = engine.newToken();
        this.gate = new GatePass(request.state().gate, this, engine.cleanup(), request.name());
        this.events = new CallEvents(engine.listeners(), request, time);
        this.failures = new TryFailures(request.name(), engine.holds().failures(), engine.runtime(), interruptible,
                events);
    }

    /** Starts the acquisition: the future completes with the new hold, or {@code null} if the wait ran out. */
    public CompletableFuture<Hold> start() {
        CompletableFuture<Void> entry = gate.enter();
        if (entry.isDone()) {
            submit(this::entered);
        } else {
            execute(this::waitAtGate);
            entry.whenComplete((entered, error) -> submit(this::entered));
        }
        return result();
    }

    /** Whether an interrupt was waited through (uninterruptible calls only). */
    public boolean wasInterrupted() {
        return failures.wasInterrupted();
    }

    /** The caller's thread was interrupted while no step ran: it ends an interruptible call, else it is recorded. */
    @Override
    public void interrupt(InterruptedException interrupt) {
        InterruptedException error = failures.waitInterrupted(interrupt);
        if (error != null) {
            submit(() -> finish(null, error));
        }
    }

    /** The registry closes: a waiting call withdraws. */
    @Override
    public void wakeForClose() {
        submit(() -> wakeIfSleeping(WaitEnd.POLL));
    }

    @Override
    public Duration waited() {
        return time.waited();
    }

    /** How the wait ended: what let the try that got the lock happen. */
    @Override
    public WaitEnd waitEnd() {
        return waitEnd;
    }

    // --- steps ---

    @Override
    public String firstToken() {
        return firstToken;
    }

    @Override
    public long leaseMillis() {
        return request.leaseMillis();
    }

    @Override
    public boolean queues() {
        return queues;
    }

    /**
     * The gate let this call in (or the registry closed): the first try, or its answer if the predecessor sent it with
     * its release.
     */
    private void entered() throws InterruptedException {
        gate.entered();
        NameGate.PassedTry passed = gate.passed();
        if (passed == null) {
            newAttempt();
            return;
        }
        try {
            admit();
        } catch (RuntimeException closed) {
            gate.abandonUnused(passed);
            throw closed;
        }
        Attempt current = new Attempt(engine, request, firstToken, waits ? this::noticeArrived : null, async);
        attempt = current;
        current.sending();
        // it hears notices only from now on: should the try have queued it, a hand-off since would go unheard, so a
        // busy answer is followed by another try at once
        noticeMissed = waits;
        awaitTry(current, passed.answer(), passed.sentNanos(), waits, true);
    }

    /** Another call of this registry has the name: this one waits at the gate until it lets this one in. */
    private void waitAtGate() {
        waitEnd = WaitEnd.LOCAL_HAND_OFF;
        armDeadline();
    }

    private void newAttempt() throws InterruptedException {
        admit();
        String token = restarted ? engine.newToken() : firstToken;
        if (restarted) {
            waitEnd = WaitEnd.POLL;
        }
        attempt = new Attempt(engine, request, token, waits ? this::noticeArrived : null, async);
        tryStore(queues);
    }

    /** A waiting call counts among the registry's waiters (or finds it closed); a single try checks it is open. */
    private void admit() {
        if (waits) {
            engine.waiters().admit(this, request.name());
        } else {
            engine.checkOpen(request.name());
        }
    }

    /** A hand-off notice: wakes a sleeping attempt now, or one whose try is in flight once it is answered. */
    private void noticeArrived() {
        submit(() -> {
            if (inFlight()) {
                noticeMissed = true;
            } else {
                wakeIfSleeping(WaitEnd.NOTICE);
            }
        });
    }

    /** One try: answered within this step (blocking), or sent, with its answer handled by a later step. */
    private void tryStore(boolean queue) throws InterruptedException {
        if (!async) {
            failures.beforeTry(); // a blocking caller's try goes out on its thread: a pending interrupt counts first
        }
        Attempt current = attempt;
        long sent = current.sending();
        awaitTry(current, current.send(queue), sent, queue, false);
    }

    /**
     * The answer to a try of {@code current}'s, sent at {@code sent}: handled, or a failure classified. A try sent by
     * the predecessor with its release ({@code carried}) failed with that call: the failure is the predecessor's, and
     * the try only unanswered here.
     */
    private void awaitTry(Attempt current, CompletionStage<AcquireResult> answered, long sent, boolean queue,
            boolean carried) throws InterruptedException {
        afterReply(answered, (answer, failure) -> {
            if (failure != null) {
                current.noAnswer();
                throw carried ? failures.carrierFailed(remainingNanos())
                        : failures.classified(failure, remainingNanos());
            }
            handle(failures.answered(current.received(sent, answer, queue)));
        });
    }

    /** What an answered try means: the hold, the end of the wait, or a wait for a notice or the next poll. */
    private void handle(AcquireResult answer) throws InterruptedException {
        HandOffNotices notices = engine.notices();
        if (!answer.acquired() && waits && attempt.answers() == 1 && notices != null && !notices.listening()
                && remainingNanos() > 0) {
            // a hand-off before the registry hears them would go unnoticed until the next poll: ask again once they
            // are heard, or after a poll interval
            sleep(Math.min(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(engine.maxPollMillis())), WaitEnd.POLL);
            notices.listen().whenComplete((heard, error) -> submit(() -> wakeIfSleeping(WaitEnd.POLL)));
            return;
        }
        if (answer.acquired()) {
            Hold hold = attempt.acquired();
            if (hold == null && remainingNanos() > 0) {
                // the answer came too late to count: its token is given up, and a new one tries after a pause
                startOver(HoldClock.lateReplyPauseNanos(attempt.lastReplyNanos(), engine.maxPollMillis()));
                return;
            }
            finish(hold, null);
            return;
        }
        if (!waits) {
            finish(null, null);
            return;
        }
        engine.queued();
        if (engine.isClosed()) {
            withdraw();
            return;
        }
        long remaining = remainingNanos();
        if (remaining <= 0) {
            // at most one command after the wait: leaving the queue tells whether it was handed over meanwhile;
            // if the last poll already answered after the wait, the clean-up leaves for it
            late = time.isAfterDeadline(attempt.answeredNanos());
            if (late || !attempt.mustLeave()) {
                finish(null, null);
                return;
            }
            Attempt current = attempt;
            long sent = engine.runtime().nanoTime();
            afterReply(current.leave(), (left, failure) -> finish(current.left(sent, left, failure), null));
            return;
        }
        armDeadline();
        long pause = HoldClock.pollPauseNanos(engine.runtime().random(), engine.maxPollMillis(),
                answer.holderLeaseMillis());
        sleep(Math.min(remaining, pause),
                HoldClock.pausesUntilLeaseEnd(pause, answer.holderLeaseMillis()) ? WaitEnd.LEASE_END : WaitEnd.POLL);
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
     * should the next try get the lock): the notice's hold if it can be trusted; else another try while the wait
     * lasts, or the end of the wait as {@link #handle} decides it.
     */
    private void wakeIfSleeping(WaitEnd by) throws InterruptedException {
        if (!time.wake()) {
            return;
        }
        waitEnd = by;
        Hold handedOver = attempt.noticeHold();
        if (handedOver != null) {
            waitEnd = WaitEnd.NOTICE;
            finish(handedOver, null);
            return;
        }
        if (!engine.isClosed() && remainingNanos() > 0) {
            tryStore(queues);
        } else {
            handle(attempt.last());
        }
    }

    /** A transient error or an interrupt that broke a command of lock(): go on with a new token. */
    @Override
    void restart() {
        startOver(failures.takePause());
    }

    /**
     * Gives up the current token (leaving whatever it may hold) and tries again with a new one after
     * {@code pauseNanos}, cut to what is left of the wait.
     */
    private void startOver(long pauseNanos) {
        restarted = true;
        endAttempt(false);
        time.after(Math.min(pauseNanos, Math.max(0, remainingNanos())), () -> submit(this::newAttempt));
    }

    /** The wait ran out: a call at the gate gives up; a sleeping one asks once more, by leaving the store's queue. */
    private void deadlinePassed() throws InterruptedException {
        if (!gate.isInside()) {
            if (gate.giveUp()) {
                finish(null, null);
            }
        } else {
            wakeIfSleeping(WaitEnd.POLL);
        }
    }

    /** The registry closes: leave the queue and anything handed over, then fail the call. */
    private void withdraw() throws InterruptedException {
        Attempt current = attempt;
        afterReply(current.withdraw(), (done, failure) -> {
            current.withdrawn(failure);
            throw new IllegalStateException("Lock '" + request.name() + "' was not acquired: its registry was closed "
                    + "while the call waited");
        });
    }

    /** The one way out: the hold, nothing ({@code null}: the wait ran out, or the caller left) or an error. */
    @Override
    void finish(Hold hold, Throwable error) {
        boolean inFlight = markFinished();
        time.cancelDeadline();
        if (inFlight) {
            attempt.noAnswer(); // its answer may still come (and the command run): clean up behind it
        }
        endAttempt(late || inFlight);
        gate.ended(hold != null);
        events.ended(() -> engine.settle(request, hold, this), hold, error);
        complete(hold, error);
    }

    /** Ends the current attempt, cleaning up in the background if the caller's wait is over ({@code late}). */
    private void endAttempt(boolean late) {
        time.wake();
        if (attempt != null) {
            if (waits) {
                engine.waiters().remove(this);
            }
            attempt.close(late);
            attempt = null;
        }
    }

    private void armDeadline() {
        time.armDeadline(() -> submit(this::deadlinePassed));
    }

    private long remainingNanos() {
        return time.remainingNanos();
    }
}
