package dev.distlock.core.engine.acquire;

import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.engine.store.TryFailures;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * A state machine driven by steps ({@link Acquisition}'s base): events submit steps to an executor that runs them
 * one at a time ({@link StepRunners}), so the machine's state needs no lock; a step after the end does nothing, and
 * after a cancellation the next step ends the machine instead. A step's outcome is thrown: a
 * {@link TryFailures.Restart}, a {@link TryFailures.OutOfTime}, or an error that ends it.
 */
public abstract class StepMachine {

    private final Executor steps;
    private final CompletableFuture<Hold> result = new CompletableFuture<>();
    // written by steps only
    private boolean finished;
    /** Whether a command was sent and its answer has not come yet. */
    private boolean inFlight;
    /** Whether the owner cancelled: the next step ends the machine. */
    private volatile boolean cancelled;

    StepMachine(Executor steps) {
        this.steps = steps;
    }

    /** The outcome: the hold, {@code null} (out of time, or cancelled), or the error. */
    final CompletableFuture<Hold> result() {
        return result;
    }

    /** Whether the machine ended. */
    public final boolean isDone() {
        return result.isDone();
    }

    /** Completes the outcome, once {@link #finish} has settled it. */
    final void complete(Hold hold, Throwable error) {
        if (error != null) {
            result.completeExceptionally(error);
        } else {
            result.complete(hold);
        }
    }

    /** Start over after a {@link TryFailures.Restart}. */
    abstract void restart();

    /** The one end: with a hold, with nothing ({@code null}: out of time, or cancelled) or with an error. */
    abstract void finish(Hold hold, Throwable error);

    /** Runs {@code body} as a step, unless the machine finished; its outcome decides what comes next. */
    final void submit(Step body) {
        steps.execute(() -> step(body));
    }

    /**
     * Runs {@code body} as the machine's first step, here and now: for a blocking caller, whose own thread runs the
     * steps and has not begun to ({@link StepRunners.CallerSteps#await}), so no other step can run meanwhile. An
     * uncontended call then has no step queued at all.
     */
    final void runFirst(Step body) {
        step(body);
    }

    private void step(Step body) {
        if (finished) {
            return;
        }
        if (cancelled) {
            finish(null, null);
            return;
        }
        try {
            body.run();
        } catch (TryFailures.Restart restart) {
            restart();
        } catch (TryFailures.OutOfTime end) {
            finish(null, null);
        } catch (InterruptedException | RuntimeException failure) {
            finish(null, failure);
        }
    }

    /** Runs {@code body} as a step after all those submitted before it (an executor's task, outside the machine). */
    final void execute(Runnable body) {
        steps.execute(body);
    }

    /**
     * The owner no longer wants the result: the next step, whatever it was for, ends the machine instead, so no
     * command goes out after the cancellation.
     */
    public final void cancel() {
        cancelled = true;
        submit(() -> { });
    }

    /**
     * Handles the answer (or failure, unwrapped) to a command: within this step if it is answered already (a
     * blocking caller's, made on its thread), else in a later step unless the machine ended meanwhile.
     */
    final <T> void afterReply(CompletionStage<T> sent, Reply<T> then) throws InterruptedException {
        CompletableFuture<T> reply = sent.toCompletableFuture();
        if (reply.isDone()) {
            T answer = null;
            Throwable failure = null;
            try {
                answer = reply.join();
            } catch (CompletionException | CancellationException failed) {
                failure = StoreCalls.unwrapped(failed);
            }
            then.handle(answer, failure);
            return;
        }
        inFlight = true;
        reply.whenComplete((answer, failure) -> submit(() -> {
            inFlight = false;
            then.handle(answer, StoreCalls.unwrapped(failure));
        }));
    }

    /** Marks the end; true if a command was in flight (its answer may still come, and the command run). */
    final boolean markFinished() {
        finished = true;
        return inFlight;
    }

    /** Whether a command was sent and its answer has not come yet. */
    final boolean inFlight() {
        return inFlight;
    }

    /** What a later step does with the answer to a command sent without waiting. */
    @FunctionalInterface
    interface Reply<T> {

        void handle(T answer, Throwable failure) throws InterruptedException;
    }

    /** A step of the machine. */
    @FunctionalInterface
    interface Step {

        void run() throws InterruptedException;
    }
}
