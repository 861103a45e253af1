package dev.distlock.core.engine;

import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.runtime.LockRuntime;
import java.util.ArrayDeque;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.random.RandomGenerator;

/**
 * A runtime whose time moves only when the test moves it ({@link #advance}), and whose timer tasks, steps and store
 * calls run on the test's thread, in order, when the test says so: a rule that turns on an exact instant (a deadline
 * reached or passed by one nanosecond) is then tested at that instant. Its jitter is drawn from a seeded generator.
 */
public final class VirtualRuntime implements LockRuntime {

    /** Where the clock starts: neither zero nor near an overflow, as the system's monotonic clock may read. */
    public static final long START_NANOS = 1_000_000_000_000L;

    private final PriorityQueue<Timed> timer = new PriorityQueue<>();
    private final ArrayDeque<Runnable> work = new ArrayDeque<>();
    private final RandomGenerator random = new Random(42);
    private long now = START_NANOS;
    private long sequence;
    private boolean closed;

    /** A timer task due at {@code atNanos}; ties run in the order they were scheduled. */
    private final class Timed implements Comparable<Timed>, EngineExecutors.Scheduled {

        final long atNanos;
        final long order = sequence++;
        final Runnable task;
        boolean cancelled;

        Timed(long atNanos, Runnable task) {
            this.atNanos = atNanos;
            this.task = task;
        }

        @Override
        public int compareTo(Timed other) {
            int byTime = Long.compare(atNanos - START_NANOS, other.atNanos - START_NANOS);
            return byTime != 0 ? byTime : Long.compare(order, other.order);
        }

        @Override
        public void cancel() {
            synchronized (VirtualRuntime.this) {
                cancelled = true;
                timer.remove(this);
            }
        }
    }

    @Override
    public synchronized long nanoTime() {
        return now;
    }

    @Override
    public synchronized long currentTimeMillis() {
        return now / 1_000_000;
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public EngineExecutors newExecutors() {
        Executor queued = this::queue;
        return new EngineExecutors() {
            @Override
            public Scheduled schedule(Runnable task, long delayNanos) {
                synchronized (VirtualRuntime.this) {
                    if (closed) {
                        throw new RejectedExecutionException("closed");
                    }
                    Timed timed = new Timed(now + Math.max(0, delayNanos), task);
                    timer.add(timed);
                    return timed;
                }
            }

            @Override
            public Executor steps() {
                return queued;
            }

            @Override
            public Executor calls() {
                return queued;
            }

            @Override
            public void close() {
                synchronized (VirtualRuntime.this) {
                    closed = true;
                }
            }
        };
    }

    private synchronized void queue(Runnable task) {
        if (closed) {
            throw new RejectedExecutionException("closed");
        }
        work.add(task);
    }

    /** Runs the steps and store calls handed over so far, and those they hand over, until none is left. */
    public void runPending() {
        Runnable next;
        while ((next = pollWork()) != null) {
            next.run();
        }
    }

    private synchronized Runnable pollWork() {
        return work.poll();
    }

    /**
     * Moves the clock {@code nanos} forward: each timer task due by then runs at its instant (the clock reads it), in
     * order, each followed by the work it handed over.
     */
    public void advance(long nanos) {
        long target;
        synchronized (this) {
            target = now + nanos;
        }
        runPending();
        Timed due;
        while ((due = pollDue(target)) != null) {
            due.task.run();
            runPending();
        }
        synchronized (this) {
            now = target;
        }
    }

    private synchronized Timed pollDue(long target) {
        Timed first = timer.peek();
        if (first == null || first.atNanos - target > 0) {
            return null;
        }
        timer.poll();
        now = first.atNanos;
        return first;
    }

    /** How many timer tasks are pending (not run, not cancelled). */
    public synchronized int pendingTimers() {
        return timer.size();
    }

    /** How long from now until the first pending timer task is due; -1 if none is pending. */
    public synchronized long nextTimerInNanos() {
        Timed first = timer.peek();
        return first == null ? -1 : first.atNanos - now;
    }
}
