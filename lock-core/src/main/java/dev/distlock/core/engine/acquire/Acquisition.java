package dev.distlock.core.engine.acquire;

import dev.distlock.core.LockEvent;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.hold.HoldLifecycle;
import dev.distlock.core.engine.hold.NameGate;
import dev.distlock.core.engine.runtime.StepRunners;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;

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
 * stream of tries. The tries and their answers are {@link StoreTries}'s, the sleeps between them
 * {@link WaitBetweenTries}'s; this class is how the call enters, when its wait runs out and how it ends.
 */
public final class Acquisition extends StoreTries
        implements StepRunners.Awaited, NameGate.Caller, HoldLifecycle.Acquired {

    private final GatePass gate;

    /**
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt of the thread running the steps ends the call
     * @param async whether commands are sent without blocking the step's thread (for non-blocking callers), their
     *        answers handled by later steps; else each is answered within its step
     */
    public Acquisition(Engine engine, LockRequest request, long waitNanos, boolean interruptible,
            boolean async, Executor steps) {
        super(engine, request, waitNanos, interruptible, async, steps);
        this.gate = new GatePass(request.takesPermits() ? null : request.state().gate, this, engine.cleanup(),
                engine.waiters(), request.name());
    }

    /** Starts the acquisition: the future completes with the new hold, or {@code null} if the wait ran out. */
    public CompletableFuture<Hold> start() {
        return start(false);
    }

    /**
     * {@link #start} for a blocking caller, on the thread that then runs the steps while it waits: if the gate lets
     * the call in at once, its first try is made here and now ({@link #runFirst}), and an uncontended call is done on
     * return, never having queued a step. A pending interrupt is then met by that try as by any later one.
     */
    public CompletableFuture<Hold> startOnCaller() {
        return start(true);
    }

    private CompletableFuture<Hold> start(boolean onCaller) {
        CompletableFuture<Void> entry = gate.enter();
        if (entry.isDone() && onCaller) {
            runFirst(this::entered);
        } else if (entry.isDone()) {
            submit(this::entered);
        } else {
            execute(this::waitAtGate);
            entry.whenComplete((entered, error) -> submit(this::entered));
        }
        return result();
    }

    /**
     * Whether an interrupt came that the call's outcome does not tell: waited through by an uninterruptible call, or
     * come as an interruptible one took the lock in a step queued before the interrupt's.
     */
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

    @Override
    public boolean awaitsPassedTry() {
        return gate.awaitsPassedTry();
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
        gate.tookUpPassedTry();
        Attempt current = new Attempt(engine, request, firstToken, waits ? this : null, async);
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

    /** The wait ran out: a call at the gate gives up; a sleeping one asks once more, by leaving the store's queue. */
    @Override
    void deadlinePassed() throws InterruptedException {
        if (!gate.isInside()) {
            if (gate.giveUp()) {
                finish(null, null);
            }
        } else {
            wakeIfSleeping(WaitEnd.POLL);
        }
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
        engine.settle(request, hold, this); // the outcome counts: a hold starts there, and listeners hear of it
        if (hold == null && engine.listeners().any()) {
            engine.listeners().acquireFailed(event(error));
        }
        complete(hold, error);
    }

    // --- what the listeners hear of the call (nothing is made for them when none is registered) ---

    /** Transient failures have lasted a while: the listeners hear of it once, while the call goes on waiting. */
    @Override
    public void persistent(RuntimeException lastFailure) {
        engine.listeners().acquireRetrying(event(lastFailure));
    }

    private LockEvent event(Throwable error) {
        return new LockEvent(request.name(), request.label(), 0, time.waited(), error, null, request.kind());
    }
}
