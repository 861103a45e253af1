package dev.distlock.core.engine.acquire;

import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.store.TransientRetries;
import dev.distlock.core.engine.store.TryFailures;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.HandOffNotices;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * The tries of an acquisition in the store ({@link Acquisition}'s base): a try with the current token
 * ({@link Attempt}), what its answer means, and a new token after a reply too late to count or a transient error.
 * The sleep between tries and what wakes it are its base's ({@link WaitBetweenTries}); how the call enters (the
 * name's gate), when its wait runs out and how it ends are the acquisition's.
 */
abstract class StoreTries extends WaitBetweenTries implements TransientRetries.Reporter {

    /** Whether its tries queue: it waits, and the store has a queue. */
    final boolean queues;
    final boolean async;
    final TryFailures failures;
    /** The token of the first try, made up front so that a predecessor handing over the gate can send that try. */
    final String firstToken;

    // written by steps only, which run one at a time
    Attempt attempt;
    /** Whether the last answer came after the wait: the attempt is cleaned up in the background. */
    boolean late;
    /** Whether the first attempt ended without the lock and another began: it has a token of its own. */
    private boolean restarted;

    StoreTries(Engine engine, LockRequest request, long waitNanos, boolean interruptible, boolean async,
            Executor steps) {
        super(engine, request, waitNanos, steps);
        this.queues = waits && engine.queue() != null;
        this.async = async;
        this.firstToken = engine.newToken();
        this.failures = new TryFailures(request.name(), engine.holds().failures(), engine.runtime(), interruptible,
                this);
    }

    /** A new attempt's first try: with the first token, or a new one if an attempt ended before. */
    final void newAttempt() throws InterruptedException {
        admit();
        String token = restarted ? engine.newToken() : firstToken;
        if (restarted) {
            waitEnd = WaitEnd.POLL;
        }
        attempt = new Attempt(engine, request, token, waits ? this : null, async);
        tryStore(queues);
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
    final void awaitTry(Attempt current, CompletionStage<AcquireResult> answered, long sent, boolean queue,
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
            sleepUntilNoticesHeard(notices);
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
        sleepUntilNextPoll(remaining, answer.holderLeaseMillis());
    }

    /**
     * Woken from a sleep: the notice's hold if it can be trusted; else another try while the wait lasts, or the end
     * of the wait as {@link #handle} decides it.
     */
    @Override
    final void woken() throws InterruptedException {
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

    /** The registry closes: leave the queue and anything handed over, then fail the call. */
    final void withdraw() throws InterruptedException {
        Attempt current = attempt;
        afterReply(current.withdraw(), (done, failure) -> {
            current.withdrawn(failure);
            throw new IllegalStateException("Lock '" + request.name() + "' was not acquired: its registry was closed "
                    + "while the call waited");
        });
    }

    /** Ends the current attempt, cleaning up in the background if the caller's wait is over ({@code late}). */
    final void endAttempt(boolean late) {
        time.wake();
        if (attempt != null) {
            leaveWaiters();
            attempt.close(late);
            attempt = null;
        }
    }
}
