package dev.distlock.core.support;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a registry runs on besides its callers', all daemons, stopped by {@link #close()}:
 * <ul>
 *   <li>one timer, which only schedules (deadlines, renewals, polls) and never calls the store;</li>
 *   <li>{@linkplain #calls() calls}: renewals, clean-ups and announcements, each a blocking store call that may
 *   take a client's whole command timeout, so there are as many threads as such calls in flight;</li>
 *   <li>{@linkplain #steps() steps}: the steps of non-blocking callers' acquisitions and their holds' operations, on
 *   a bounded pool ({@value #STEP_THREADS} threads): a waiter costs a thread only while one of its store calls
 *   runs.</li>
 * </ul>
 */
final class BackgroundThreads implements AutoCloseable {

    /** Threads for the steps of non-blocking callers. */
    static final int STEP_THREADS = 8;

    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService calls;
    private final ThreadPoolExecutor steps;

    BackgroundThreads() {
        timer = new ScheduledThreadPoolExecutor(1, daemon("distlock-timer"));
        timer.setRemoveOnCancelPolicy(true);
        // the executor wakes its thread whenever a new task becomes the earliest one; a no-op due every second stays
        // ahead of nearly every renewal, so scheduling one for a new hold wakes nobody
        timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS);
        calls = new ThreadPoolExecutor(0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(),
                daemon("distlock-call-"));
        steps = new ThreadPoolExecutor(STEP_THREADS, STEP_THREADS, 30, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                daemon("distlock-async-"));
        steps.allowCoreThreadTimeOut(true);
    }

    ScheduledExecutorService timer() {
        return timer;
    }

    ExecutorService calls() {
        return calls;
    }

    ExecutorService steps() {
        return steps;
    }

    @Override
    public void close() {
        timer.shutdownNow();
        calls.shutdownNow();
        steps.shutdownNow();
    }

    private static ThreadFactory daemon(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name.endsWith("-") ? name + count.incrementAndGet() : name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
