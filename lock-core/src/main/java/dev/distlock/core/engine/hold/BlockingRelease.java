package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.store.StoreCalls;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * A blocking caller's release: its steps ({@link ReleaseSteps}) run on the caller's own thread while it waits, and
 * the wait is uninterruptible. An interrupt, pending when the release begins or arriving during it, is only recorded
 * (it must not meet the release's commands, which may have run) and set again on return; an interrupt that broke
 * the wait for an answer is told to the steps, which send the command again without it.
 */
final class BlockingRelease implements StepRunners.Awaited, Runnable {

    /** Where the release's steps run: on the caller's thread while it waits. */
    final StepRunners.CallerSteps steps;
    /** An interrupt pending when the release began: kept for the caller, the release must not meet it. */
    private final boolean pending = Thread.interrupted();
    private CompletableFuture<Void> done;
    private boolean interrupted;

    /** A release about to begin on the calling thread: a pending interrupt is taken off it until the end. */
    BlockingRelease(EngineRuntime runtime) {
        this.steps = new StepRunners.CallerSteps(runtime);
    }

    /**
     * Runs the steps of the release that {@code release} completes until it does; its failure is thrown as it is. The
     * release was started with {@link #steps} and this object as its {@code callerInterrupted}.
     */
    void await(CompletableFuture<Void> release) {
        done = release;
        try {
            steps.await(this);
        } finally {
            if (pending || interrupted || Thread.interrupted()) {
                Thread.currentThread().interrupt();
            }
        }
        try {
            done.join();
        } catch (CompletionException failed) {
            if (StoreCalls.unwrapped(failed) instanceof RuntimeException failure) {
                throw failure;
            }
            throw failed;
        }
    }

    /** An interrupt broke the wait for an answer: recorded. */
    @Override
    public void run() {
        interrupted = true;
    }

    @Override
    public boolean isDone() {
        return done.isDone();
    }

    @Override
    public void interrupt(InterruptedException interrupt) {
        interrupted = true;
    }
}
