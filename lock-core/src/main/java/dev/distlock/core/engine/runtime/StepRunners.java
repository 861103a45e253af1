package dev.distlock.core.engine.runtime;

import dev.distlock.core.runtime.CallerWaits;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where the steps of an {@link Acquisition} run: one at a time, in the order they were submitted, never inline
 * in {@code execute}. A blocking caller runs them on its own thread while it waits ({@link CallerSteps}): its
 * store calls are made by the thread that asked, as with any blocking client, and an interrupt reaches them. A
 * non-blocking caller's steps run on a background executor ({@link Serial}), costing a thread only while one
 * runs.
 */
public final class StepRunners {

    private static final Logger log = LoggerFactory.getLogger(StepRunners.class);

    private StepRunners() {
    }

    /** Runs steps one after the other on a shared executor. */
    public static final class Serial implements Executor {

        private final Executor pool;
        private final ArrayDeque<Runnable> steps = new ArrayDeque<>();
        private boolean running;

        public Serial(Executor pool) {
            this.pool = pool;
        }

        @Override
        public void execute(Runnable step) {
            synchronized (this) {
                steps.add(step);
                if (running) {
                    return;
                }
                running = true;
            }
            try {
                pool.execute(this::drain);
            } catch (RejectedExecutionException closed) {
                drain(); // the registry closed: the steps run here, to find it closed and end their acquisition
            }
        }

        private void drain() {
            while (true) {
                Runnable step;
                synchronized (this) {
                    step = steps.poll();
                    if (step == null) {
                        running = false;
                        return;
                    }
                }
                runSafely(step);
            }
        }
    }

    /**
     * Runs steps on the thread blocked in {@link #await} while it waits; steps submitted after it stopped waiting
     * (clean-up behind a finished acquisition) run on a {@link Serial} executor instead. Made for every blocking
     * call, so it is kept small: a queue and this object's monitor.
     */
    public static final class CallerSteps implements Executor {

        /** Made with the first step: a blocking release whose answers come inline has none. */
        private ArrayDeque<Runnable> steps;
        private final Executor pool;
        private final CallerWaits waits;
        /** Made when the first step comes after the caller stopped waiting. */
        private Executor afterwards;
        private boolean left;

        /** Steps of one blocking call of a registry running on {@code runtime}. */
        public CallerSteps(EngineRuntime runtime) {
            this.pool = runtime.calls();
            this.waits = runtime.callerWaits();
        }

        @Override
        public void execute(Runnable step) {
            Executor later;
            synchronized (this) {
                if (!left) {
                    if (steps == null) {
                        steps = new ArrayDeque<>(2); // rarely more than one step at a time
                    }
                    steps.add(step);
                    waits.wake(this);
                    return;
                }
                if (afterwards == null) {
                    afterwards = new Serial(pool);
                }
                later = afterwards;
            }
            later.execute(step);
        }

        /**
         * Runs steps on this thread until {@code call} is done. An interrupt while no step runs goes to the call
         * (which decides whether it ends) and is then cleared.
         */
        public void await(Awaited call) {
            try {
                while (!call.isDone()) {
                    Runnable step;
                    try {
                        step = next();
                    } catch (InterruptedException interrupt) {
                        call.interrupt(interrupt);
                        continue;
                    }
                    step.run();
                }
            } finally {
                Runnable[] rest = null;
                synchronized (this) {
                    left = true;
                    if (steps != null && !steps.isEmpty()) {
                        rest = steps.toArray(Runnable[]::new);
                        steps.clear();
                    }
                }
                if (rest != null) {
                    for (Runnable step : rest) {
                        execute(step);
                    }
                }
            }
        }

        /**
         * Waits on the calling thread, as a blocking caller waits for its steps, until {@code stage} is complete; an
         * interrupt meanwhile does not end the wait and is set again on return.
         */
        public static void awaitUninterruptibly(EngineRuntime runtime, CompletableFuture<?> stage) {
            if (stage.isDone()) {
                return;
            }
            CallerSteps steps = new CallerSteps(runtime);
            stage.whenComplete((value, failure) -> steps.execute(() -> { }));
            boolean[] interrupted = {Thread.interrupted()};
            steps.await(new Awaited() {

                @Override
                public boolean isDone() {
                    return stage.isDone();
                }

                @Override
                public void interrupt(InterruptedException interrupt) {
                    interrupted[0] = true;
                }
            });
            if (interrupted[0]) {
                Thread.currentThread().interrupt();
            }
        }

        /** The next step, waited for; a pending interrupt comes first, as with a blocking queue's {@code take}. */
        private synchronized Runnable next() throws InterruptedException {
            if (Thread.interrupted()) {
                throw new InterruptedException();
            }
            Runnable step;
            while ((step = steps != null ? steps.poll() : null) == null) {
                waits.await(this);
            }
            return step;
        }
    }

    /** A call whose steps its caller runs while it waits ({@link CallerSteps#await}). */
    public interface Awaited {

        /** Whether the call finished. */
        boolean isDone();

        /** The waiting thread was interrupted while no step ran. */
        void interrupt(InterruptedException interrupt);
    }

    private static void runSafely(Runnable step) {
        try {
            step.run();
        } catch (RuntimeException | Error failure) {
            log.warn("A step of a lock acquisition failed unexpectedly", failure);
        }
    }
}
