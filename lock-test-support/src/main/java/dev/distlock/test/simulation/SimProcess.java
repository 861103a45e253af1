package dev.distlock.test.simulation;

import dev.distlock.core.runtime.CallerWaits;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.runtime.LockRuntime;
import java.util.SplittableRandom;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.random.RandomGenerator;

/**
 * One simulated process: the {@link LockRuntime} its registry runs on, over the simulation's
 * {@link VirtualScheduler}. Its timer, step and call executors are tasks of this process, which a pause holds
 * back (a stop-the-world pause, a frozen container) while the store and the network go on.
 */
final class SimProcess implements LockRuntime {

    final String id;
    private final VirtualScheduler scheduler;
    private final SimThreads threads;
    private final SplittableRandom random;
    private long pausedUntil;
    private long pausedNanos;

    SimProcess(String id, VirtualScheduler scheduler, SimThreads threads) {
        this.id = id;
        this.scheduler = scheduler;
        this.threads = threads;
        this.random = scheduler.split();
    }

    long pausedUntil() {
        return pausedUntil;
    }

    /** Freezes this process for {@code nanos} of virtual time from now. */
    void pause(long nanos) {
        long until = Math.max(pausedUntil, scheduler.nanoTime() + nanos);
        pausedNanos += until - Math.max(pausedUntil, scheduler.nanoTime());
        pausedUntil = until;
    }

    /** How long this process was paused in all, counting the pause now under way to its end. */
    long pausedNanos() {
        return pausedNanos;
    }

    boolean isPaused() {
        return pausedUntil > scheduler.nanoTime();
    }

    @Override
    public long nanoTime() {
        return scheduler.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return scheduler.currentTimeMillis();
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    /** Its blocking callers' threads wait between steps as simulated threads. */
    @Override
    public CallerWaits callerWaits() {
        return threads;
    }

    @Override
    public EngineExecutors newExecutors() {
        return new Executors();
    }

    /** One registry's executors: tasks of this process; once closed, they take no new work and finish the rest. */
    private final class Executors implements EngineExecutors {

        private boolean closed;
        private final Executor work = this::run;

        @Override
        public Scheduled schedule(Runnable task, long delayNanos) {
            checkOpen();
            VirtualScheduler.Task scheduled = scheduler.after(delayNanos, SimProcess.this, task);
            return () -> scheduled.cancelled = true;
        }

        private void run(Runnable task) {
            checkOpen();
            scheduler.soon(SimProcess.this, task);
        }

        private void checkOpen() {
            if (closed) {
                throw new RejectedExecutionException("registry of " + id + " closed");
            }
        }

        @Override
        public Executor steps() {
            return work;
        }

        @Override
        public Executor calls() {
            return work;
        }

        @Override
        public void close() {
            closed = true;
        }
    }
}
