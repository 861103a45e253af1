package dev.distlock.core.engine.runtime;

import dev.distlock.core.runtime.CallerWaits;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.runtime.LockRuntime;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.random.RandomGenerator;

/**
 * The time and executors of one registry, taken from its {@link LockRuntime}: every part of the engine reads the
 * time, draws jitter and schedules through it, so a virtual runtime steers the whole engine. Closed with the
 * registry; after that, work handed to it runs on the thread that hands it over, to find the registry closed.
 */
public final class EngineRuntime implements AutoCloseable {

    /** A scheduled task that is not pending: nothing to cancel. */
    public static final EngineExecutors.Scheduled NOTHING = () -> { };

    private final LockRuntime runtime;
    private final EngineExecutors executors;

    public EngineRuntime(LockRuntime runtime) {
        this.runtime = runtime;
        this.executors = runtime.newExecutors();
    }

    /** The monotonic time in nanoseconds. */
    public long nanoTime() {
        return runtime.nanoTime();
    }

    /** The wall-clock time in epoch milliseconds. */
    public long currentTimeMillis() {
        return runtime.currentTimeMillis();
    }

    public RandomGenerator random() {
        return runtime.random();
    }

    /**
     * Runs {@code task} on the timer after {@code nanos}.
     *
     * @throws RejectedExecutionException once the registry closed
     */
    public EngineExecutors.Scheduled schedule(Runnable task, long nanos) {
        return executors.schedule(task, nanos);
    }

    /** Runs {@code task} on the timer after {@code nanos}; at once, here, once the registry closed. */
    public EngineExecutors.Scheduled after(long nanos, Runnable task) {
        try {
            return executors.schedule(task, nanos);
        } catch (RejectedExecutionException closed) {
            task.run();
            return NOTHING;
        }
    }

    /** How a blocking caller's thread waits between the steps of its call. */
    public CallerWaits callerWaits() {
        return runtime.callerWaits();
    }

    /** Store calls that block. */
    public Executor calls() {
        return executors.calls();
    }

    /** Short work that never waits for the store. */
    public Executor steps() {
        return executors.steps();
    }

    /**
     * Runs what follows a store's asynchronous answer on a step executor, off the client's own thread (a caller's
     * continuation there would hold up every user of its connection); on this thread once the registry closed.
     */
    public void afterAnswer(Runnable work) {
        try {
            executors.steps().execute(work);
        } catch (RejectedExecutionException closed) {
            work.run();
        }
    }

    @Override
    public void close() {
        executors.close();
    }
}
