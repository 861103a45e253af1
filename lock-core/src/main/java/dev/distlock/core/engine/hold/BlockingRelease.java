package dev.distlock.core.engine.hold;

import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.StepRunners;
import dev.distlock.core.engine.store.StoreCalls;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.Executor;

/**
 * A blocking caller's release: its steps ({@link ReleaseSteps}) run on the caller's own thread while it waits, and
 * the wait is uninterruptible. An interrupt, pending when the release begins or arriving during it, is only recorded
 * (it must not meet the release's commands, which may have run) and set again on return; an interrupt that broke
 * the wait for an answer is told to the steps, which send the command again without it.
 */
final class BlockingRelease implements StepRunners.Awaited, Runnable {

    /** Makes the release's steps on the given executor, told of a broken wait by the given callback. */
    interface Steps {

        CompletableFuture<Void> start(Executor steps, Runnable callerInterrupted);
    }

    private final EngineRuntime runtime;
    private CompletableFuture<Void> done;
    private boolean interrupted;

    BlockingRelease(EngineRuntime runtime) {
        this.runtime = runtime;
    }

    /** Runs the release's steps until they are done; its failure is thrown as it is. */
    void run(Steps release) {
        StepRunners.CallerSteps steps = new StepRunners.CallerSteps(runtime.calls());
        boolean pending = Thread.interrupted(); // kept for the caller: the release must not meet it
        done = release.start(steps, this);
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
