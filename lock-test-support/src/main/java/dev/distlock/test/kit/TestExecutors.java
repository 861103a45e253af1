package dev.distlock.test.kit;

import dev.distlock.core.runtime.EngineExecutors;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * One registry's executors on a {@link TestClock}: steps and calls on real daemon threads, the timer on the clock.
 * Counts the work in flight, so that an advance can wait until what it made due has run.
 */
final class TestExecutors implements EngineExecutors {

    private final TestClock clock;
    private final ExecutorService steps = TestClock.pool("distlock-test-step-");
    private final ExecutorService calls = TestClock.pool("distlock-test-call-");
    private final Executor countedSteps = task -> submit(steps, task);
    private final Executor countedCalls = task -> submit(calls, task);
    private final Object monitor = new Object();
    private int inFlight;
    private volatile boolean closed;

    TestExecutors(TestClock clock) {
        this.clock = clock;
    }

    @Override
    public Scheduled schedule(Runnable task, long delayNanos) {
        checkOpen();
        TestClock.TimerTask scheduled = clock.schedule(this, task, delayNanos);
        return () -> clock.cancel(scheduled);
    }

    @Override
    public Executor steps() {
        return countedSteps;
    }

    @Override
    public Executor calls() {
        return countedCalls;
    }

    @Override
    public void close() {
        closed = true;
        clock.closed(this);
        steps.shutdownNow();
        calls.shutdownNow();
    }

    /** Runs a timer task on the steps threads, as a real timer hands work on, and waits until all has settled. */
    void runSettled(Runnable task, Duration timeout) {
        if (closed) {
            return;
        }
        CountDownLatch ran = new CountDownLatch(1);
        try {
            submit(steps, () -> {
                try {
                    task.run();
                } finally {
                    ran.countDown();
                }
            });
            if (!ran.await(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
                throw new IllegalStateException("a timer task did not finish within " + timeout);
            }
        } catch (RejectedExecutionException ex) {
            return; // closed meanwhile: the task is dropped, as a closed timer drops it
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while advancing the test clock", ex);
        }
        awaitIdle(timeout);
    }

    /** Waits until no step or call of this registry runs or waits to run, up to {@code timeout}. */
    void awaitIdle(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (monitor) {
            while (inFlight > 0 && !closed) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new IllegalStateException(inFlight + " tasks of a registry still run after " + timeout);
                }
                try {
                    TimeUnit.NANOSECONDS.timedWait(monitor, left);
                } catch (InterruptedException ex) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException("interrupted while advancing the test clock", ex);
                }
            }
        }
    }

    private void submit(ExecutorService pool, Runnable task) {
        checkOpen();
        synchronized (monitor) {
            inFlight++;
        }
        try {
            pool.execute(() -> {
                try {
                    task.run();
                } finally {
                    done();
                }
            });
        } catch (RejectedExecutionException ex) {
            done();
            throw ex;
        }
    }

    private void done() {
        synchronized (monitor) {
            inFlight--;
            monitor.notifyAll();
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new RejectedExecutionException("the registry's executors are closed");
        }
    }
}
