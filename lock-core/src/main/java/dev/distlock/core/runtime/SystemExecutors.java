package dev.distlock.core.runtime;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * One registry's daemon threads, the only place the engine makes threads:
 * <ul>
 *   <li>one timer, which only schedules (deadlines, renewals, polls) and never calls the store;</li>
 *   <li>{@linkplain #calls() calls} ({@value #CALL_THREADS} at most): the store calls that block (announcements,
 *   and, on a store without asynchronous operations such as Jedis, the calls of non-blocking callers, renewals and
 *   clean-ups), each of which may take a client's whole command timeout; more calls wait their turn;</li>
 *   <li>{@linkplain #steps() steps} ({@value #STEP_THREADS} at most): short work that never waits for the store.</li>
 * </ul>
 */
public final class SystemExecutors implements EngineExecutors {

    /** Threads for short work. */
    public static final int STEP_THREADS = 8;

    /** Threads for blocking store calls. */
    public static final int CALL_THREADS = 16;

    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor calls;
    private final ThreadPoolExecutor steps;

    SystemExecutors() {
        timer = new ScheduledThreadPoolExecutor(1, DaemonThreads.factory("distlock-timer"));
        timer.setRemoveOnCancelPolicy(true);
        // the executor wakes its thread whenever a new task becomes the earliest one; a no-op due every second stays
        // ahead of nearly every renewal, so scheduling one for a new hold wakes nobody
        timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS);
        calls = DaemonThreads.pool("distlock-call-", CALL_THREADS, 30);
        steps = DaemonThreads.pool("distlock-async-", STEP_THREADS, 30);
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        TimerTask scheduled = new TimerTask(task);
        scheduled.future = timer.schedule(scheduled, delayNanos, TimeUnit.NANOSECONDS);
        return scheduled;
    }

    @Override
    public Executor steps() {
        return steps;
    }

    @Override
    public Executor calls() {
        return calls;
    }

    /**
     * Takes no new work; what was handed over still runs (timer tasks at their time), and the threads end once it
     * has: every call under way comes to its end, and a closed registry's threads do not outlive its last task.
     */
    @Override
    public void close() {
        timer.shutdown();
        calls.shutdown();
        steps.shutdown();
    }

    /**
     * A task on the timer and its cancellation in one object (one of these per deadline, renewal and poll): a
     * {@link Callable}, which the timer takes as it is (a Runnable would be wrapped in one more object).
     */
    private static final class TimerTask implements Callable<Void>, Scheduled {

        private final Runnable task;
        private volatile boolean cancelled;
        private volatile Future<?> future;

        TimerTask(Runnable task) {
            this.task = task;
        }

        @Override
        public Void call() {
            if (!cancelled) {
                task.run();
            }
            return null;
        }

        @Override
        public void cancel() {
            cancelled = true; // before the future is set, too
            Future<?> scheduled = future;
            if (scheduled != null) {
                scheduled.cancel(false);
            }
        }
    }
}
