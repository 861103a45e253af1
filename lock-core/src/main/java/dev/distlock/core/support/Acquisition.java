package dev.distlock.core.support;

import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.AcquireResult;

import dev.distlock.core.ListenerContext;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

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
 * token. Store calls run with the interrupt flag cleared, so an interrupt breaks a wait, never a command in flight.
 */
final class Acquisition {

    private final StoreLockRegistry registry;
    private final LockStore store;
    private final LockRequest request;
    private final String name;
    private final boolean interruptible;
    private final long startNanos = System.nanoTime();
    private final long waitNanos;
    private final boolean waits;
    private final boolean async;
    private final Executor steps;
    private final CompletableFuture<Hold> result = new CompletableFuture<>();
    private final TransientRetries retries;
    /** What the listeners' events of this call carry from the thread that started it. */
    private final Object listenerContext;

    // written by steps only, which run one at a time
    private CompletableFuture<Void> gateEntry;
    private boolean hasGate;
    private boolean finished;
    private Attempt attempt;
    /** Whether the attempt waits for a notice, its poll or the store's listening; the timer that ends the wait. */
    private boolean sleeping;
    private ScheduledFuture<?> wakeUp;
    private ScheduledFuture<?> deadline;
    /** Whether a try was sent and its answer has not come yet; whether a notice came meanwhile. */
    private boolean inFlight;
    private boolean noticeMissed;
    /** Whether the last answer came after the wait: the attempt is cleaned up in the background. */
    private boolean late;
    /** Whether a try found the name held: transient errors after it end the call as a timeout, not an error. */
    private boolean sawHeld;
    /** Whether the caller cancelled: the next step ends the acquisition. */
    private volatile boolean cancelled;
    /** An interrupt that an uninterruptible acquisition waited through; the caller sets the flag again at the end. */
    private volatile boolean interrupted;

    /**
     * @param waitNanos how long to wait; 0 for one try, {@link Long#MAX_VALUE} for no limit
     * @param interruptible whether an interrupt of the thread running the steps ends the call
     * @param async whether tries are sent without blocking the step's thread (for non-blocking callers); else
     *        each is answered within its step
     */
    Acquisition(StoreLockRegistry registry, LockRequest request, long waitNanos, boolean interruptible,
            boolean async, Executor steps) {
        this.registry = registry;
        this.store = registry.store();
        this.request = request;
        this.name = request.name();
        this.waitNanos = Math.max(0, waitNanos);
        this.waits = this.waitNanos > 0;
        this.interruptible = interruptible;
        this.async = async;
        this.steps = steps;
        this.listenerContext = registry.listeners().captureContext();
        this.retries = new TransientRetries(error -> {
            try (ListenerContext.Scope scope = registry.listeners().inContext(listenerContext)) {
                registry.listeners().acquireRetrying(failure(error));
            }
        });
    }

    /** Starts the acquisition: the future completes with the new hold, or {@code null} if the wait ran out. */
    CompletableFuture<Hold> start() {
        gateEntry = request.state().gate.enter();
        if (!gateEntry.isDone()) {
            steps.execute(this::armDeadline);
        }
        gateEntry.whenComplete((entered, error) -> submit(this::entered));
        return result;
    }

    /** Whether an interrupt was waited through (uninterruptible calls only). */
    boolean wasInterrupted() {
        return interrupted;
    }

    /** The caller's thread was interrupted while no step ran: it ends an interruptible call, else it is recorded. */
    void interrupt(InterruptedException interrupt) {
        if (!interruptible) {
            interrupted = true;
            return;
        }
        InterruptedException error = new InterruptedException("Interrupted while acquiring lock '" + name + "'");
        error.initCause(interrupt);
        submit(() -> finish(null, error));
    }

    /**
     * The caller no longer wants the result (a cancelled future): withdraw, as for an interrupt. The next step,
     * whatever it was for, ends the acquisition instead, so no try goes out after the cancellation.
     */
    void cancel() {
        cancelled = true;
        submit(() -> { });
    }

    /** The registry closes: a waiting call withdraws. */
    void wakeForClose() {
        submit(this::wakeIfSleeping);
    }

    Duration waited() {
        return Duration.ofNanos(System.nanoTime() - startNanos);
    }

    // --- steps ---

    /** Runs {@code body} as a step, unless the acquisition finished; its outcome decides what comes next. */
    private void submit(Step body) {
        steps.execute(() -> {
            if (finished) {
                return;
            }
            if (cancelled) {
                finish(null, null);
                return;
            }
            try {
                body.run();
            } catch (Restart restart) {
                restart();
            } catch (OutOfTime end) {
                finish(null, null);
            } catch (InterruptedException | RuntimeException failure) {
                finish(null, failure);
            }
        });
    }

    /** The gate let this call in (or the registry closed): the first try. */
    private void entered() throws InterruptedException {
        hasGate = true;
        newAttempt();
    }

    private void newAttempt() throws InterruptedException {
        registry.checkOpen(name);
        attempt = new Attempt(registry, request, registry.newToken(), waits ? this::noticeArrived : null);
        if (waits) {
            registry.waiting(this);
        }
        tryStore(waits);
    }

    /** A hand-off notice: wakes a sleeping attempt now, or one whose try is in flight once it is answered. */
    private void noticeArrived() {
        submit(() -> {
            if (inFlight) {
                noticeMissed = true;
            } else {
                wakeIfSleeping();
            }
        });
    }

    /** One try: answered within this step, or (non-blocking) sent, with its answer handled by a later step. */
    private void tryStore(boolean queue) throws InterruptedException {
        if (!async) {
            handle(tryOnce(queue));
            return;
        }
        Attempt current = attempt;
        long sent = current.sending();
        inFlight = true;
        current.sendAsync(queue).whenComplete((answer, failure) -> submit(() -> {
            inFlight = false;
            if (failure != null) {
                current.noAnswer();
                throw classified(failure instanceof CompletionException wrapped && wrapped.getCause() != null
                        ? wrapped.getCause() : failure);
            }
            handle(answered(current.received(sent, answer, queue)));
        }));
    }

    /** What an answered try means: the hold, the end of the wait, or a wait for a notice or the next poll. */
    private void handle(AcquireResult answer) throws InterruptedException {
        if (!answer.acquired() && waits && attempt.answers() == 1 && !store.handOffs().listening()
                && remainingNanos() > 0) {
            // a hand-off before the registry hears them would go unnoticed until the next poll: ask again once they
            // are heard, or after a poll interval
            sleep(Math.min(remainingNanos(), TimeUnit.MILLISECONDS.toNanos(registry.maxPollMillis())));
            store.handOffs().listen().whenComplete((heard, error) -> submit(this::wakeIfSleeping));
            return;
        }
        if (answer.acquired()) {
            Hold hold = attempt.acquired();
            if (hold == null && remainingNanos() > 0) {
                throw Restart.INSTANCE; // the answer came too late to count
            }
            finish(hold, null);
            return;
        }
        if (!waits) {
            finish(null, null);
            return;
        }
        if (registry.isClosed()) {
            withdraw();
        }
        long remaining = remainingNanos();
        if (remaining <= 0) {
            // at most one command after the wait: leaving the queue tells whether it was handed over meanwhile;
            // if the last poll already answered after the wait, the clean-up leaves for it
            late = attempt.answeredNanos() - deadlineNanos() > 0;
            finish(late ? null : uninterrupted(attempt::leave), null);
            return;
        }
        armDeadline();
        sleep(Math.min(remaining, HoldClock.pollPauseNanos(registry.maxPollMillis(), answer.holderLeaseMillis())));
        if (noticeMissed) {
            noticeMissed = false;
            wakeIfSleeping();
        }
    }

    private void sleep(long nanos) {
        sleeping = true;
        wakeUp = schedule(nanos, this::wakeIfSleeping);
    }

    /**
     * Woken by a notice, the poll timer, the deadline or the registry's close: the notice's hold if it can be
     * trusted; else another try while the wait lasts, or the end of the wait as {@link #handle} decides it.
     */
    private void wakeIfSleeping() throws InterruptedException {
        if (!sleeping) {
            return;
        }
        sleeping = false;
        if (wakeUp != null) {
            wakeUp.cancel(false);
        }
        Hold handedOver = attempt.noticeHold();
        if (handedOver != null) {
            finish(handedOver, null);
            return;
        }
        if (!registry.isClosed() && remainingNanos() > 0) {
            tryStore(true);
        } else {
            handle(attempt.last());
        }
    }

    /** A transient error, an interrupt that broke a command of lock(), or a reply too late: go on with a new token. */
    private void restart() {
        endAttempt(false);
        long pause = retries.takePause();
        if (pause > 0) {
            schedule(pause, this::newAttempt);
        } else {
            submit(this::newAttempt);
        }
    }

    /** The wait ran out: a call at the gate gives up; a sleeping one asks once more, by leaving the store's queue. */
    private void deadlinePassed() throws InterruptedException {
        if (!hasGate) {
            if (request.state().gate.withdraw(gateEntry)) {
                finish(null, null);
            }
        } else {
            wakeIfSleeping();
        }
    }

    /** The registry closes: leave the queue and anything handed over, then fail the call. */
    private void withdraw() {
        uninterrupted(() -> {
            attempt.withdraw();
            return null;
        });
        throw new IllegalStateException("Lock '" + name + "' was not acquired: its registry was closed while the "
                + "call waited");
    }

    /** The one way out: the hold, nothing ({@code null}: the wait ran out, or the caller left) or an error. */
    private void finish(Hold hold, Throwable error) {
        finished = true;
        if (deadline != null) {
            deadline.cancel(false);
        }
        if (inFlight) {
            attempt.noAnswer(); // its answer may still come (and the command run): clean up behind it
        }
        endAttempt(late || inFlight);
        NameGate gate = request.state().gate;
        if (!hasGate && gateEntry != null && !gate.withdraw(gateEntry)) {
            gateEntry.thenRun(gate::leave); // let in just as the call ended: the gate goes on to the next
        } else if (hasGate && hold == null) {
            gate.leave();
        }
        try (ListenerContext.Scope scope = registry.listeners().inContext(listenerContext)) {
            registry.settle(this, request, hold);
            if (hold == null) {
                registry.listeners().acquireFailed(failure(error));
            }
        }
        if (hold != null) {
            result.complete(hold);
            return;
        }
        if (error != null) {
            result.completeExceptionally(error);
        } else {
            result.complete(null);
        }
    }

    /** Ends the current attempt, cleaning up in the background if the caller's wait is over ({@code late}). */
    private void endAttempt(boolean late) {
        sleeping = false;
        if (wakeUp != null) {
            wakeUp.cancel(false);
        }
        if (attempt != null) {
            if (waits) {
                registry.doneWaiting(this);
            }
            attempt.close(late);
            attempt = null;
        }
    }

    /** One try answered on this thread, with the interrupt flag cleared. */
    private AcquireResult tryOnce(boolean queue) throws InterruptedException {
        if (Thread.interrupted()) {
            if (interruptible) {
                throw new InterruptedException("Interrupted while acquiring lock '" + name + "'");
            }
            interrupted = true;
        }
        AcquireResult answer;
        try {
            answer = attempt.tryOnce(queue);
        } catch (RuntimeException failure) {
            throw classified(failure);
        }
        return answered(answer);
    }

    /**
     * What a try's failure means, to be thrown: a retry, the end of the wait or an error; an interrupt of an
     * interruptible call is thrown here.
     */
    private RuntimeException classified(Throwable failure) throws InterruptedException {
        if (Thread.interrupted() || causedByInterrupt(failure)) {
            if (interruptible) {
                InterruptedException interrupt = new InterruptedException("Interrupted while acquiring lock '" + name
                        + "'; the try in flight is cleaned up in the background");
                interrupt.initCause(failure);
                throw interrupt;
            }
            interrupted = true;
            return Restart.INSTANCE;
        }
        if (failure instanceof RuntimeException runtime && store.classify(runtime).isTransient()) {
            retries.failed(runtime);
            if (retries.retryWithin(remainingNanos())) {
                return Restart.INSTANCE;
            }
            if (sawHeld) {
                return OutOfTime.INSTANCE; // the name was held when the store last answered: a busy lock's timeout
            }
        }
        return new LockBackendException(name, "acquire", failure);
    }

    /** An answer, counted: the error streak ends, and an interrupt that raced with a taken lock gives it back. */
    private AcquireResult answered(AcquireResult answer) throws InterruptedException {
        retries.answered();
        sawHeld |= !answer.acquired();
        if (answer.acquired() && interruptible && Thread.interrupted()) {
            // the lock was taken as the interrupt came: the clean-up releases it again
            throw new InterruptedException("Interrupted while acquiring lock '" + name + "'; it is released again");
        }
        return answer;
    }

    /** Runs a store call with the interrupt flag cleared; an interrupt meanwhile is kept for the caller. */
    private <T> T uninterrupted(Supplier<T> call) {
        boolean flag = Thread.interrupted();
        try {
            return call.get();
        } finally {
            if (flag) {
                if (interruptible) {
                    Thread.currentThread().interrupt();
                } else {
                    interrupted = true;
                }
            }
        }
    }

    private void armDeadline() {
        if (deadline == null && waitNanos != Long.MAX_VALUE) {
            deadline = schedule(Math.max(0, remainingNanos()), this::deadlinePassed);
        }
    }

    private ScheduledFuture<?> schedule(long delayNanos, Step step) {
        try {
            return registry.timer().schedule(() -> submit(step), delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            submit(step); // the registry is closing: the step finds it closed
            return null;
        }
    }

    private LockEvent failure(Throwable error) {
        return new LockEvent(name, request.label(), 0, waited(), error);
    }

    private long remainingNanos() {
        return waitNanos == Long.MAX_VALUE ? Long.MAX_VALUE : waitNanos - (System.nanoTime() - startNanos);
    }

    /** When the wait ends (only meaningful for a bounded wait). */
    private long deadlineNanos() {
        return startNanos + waitNanos;
    }

    private static boolean causedByInterrupt(Throwable failure) {
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            if (cause instanceof InterruptedException || cause.getClass().getSimpleName().contains("Interrupted")) {
                return true;
            }
        }
        return false;
    }

    /** A step of the acquisition. */
    @FunctionalInterface
    private interface Step {

        void run() throws InterruptedException;
    }

    /** Thrown inside an acquisition whose wait ran out during transient errors after the name was seen held. */
    private static final class OutOfTime extends RuntimeException {

        private static final long serialVersionUID = 1L;
        static final OutOfTime INSTANCE = new OutOfTime();

        private OutOfTime() {
            super("out of time", null, false, false);
        }
    }

    /** Thrown inside an acquisition to start over with a new token. */
    private static final class Restart extends RuntimeException {

        private static final long serialVersionUID = 1L;
        static final Restart INSTANCE = new Restart();

        private Restart() {
            super("restart", null, false, false);
        }
    }
}
