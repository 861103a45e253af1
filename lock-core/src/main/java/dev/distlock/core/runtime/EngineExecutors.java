package dev.distlock.core.runtime;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * Where one registry's work runs besides its callers' threads. Once {@linkplain #close() closed}, every method
 * that takes work throws {@link RejectedExecutionException} (the engine then runs the work itself, to find the
 * registry closed); work handed over before still runs, so that every call under way comes to its end.
 */
public interface EngineExecutors extends AutoCloseable {

    /**
     * Runs {@code task} after {@code delayNanos} on the timer. A timer task only schedules or hands work on: it never
     * waits for the store.
     *
     * @throws RejectedExecutionException once closed
     */
    Scheduled schedule(Runnable task, long delayNanos);

    /** Short work that never waits for the store: steps of non-blocking callers, what follows an answer. */
    Executor steps();

    /** Store calls that block, each up to a client's command timeout. */
    Executor calls();

    /**
     * Stops taking work. Work handed over before still runs, timer tasks at their time: a wait, pause or retry under
     * way ends as it would have, and finds the registry closed.
     */
    @Override
    void close();

    /** A task scheduled on the timer. */
    @FunctionalInterface
    interface Scheduled {

        /** Keeps the task from running if it has not started yet. */
        void cancel();
    }
}
