package dev.distlock.core.support;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads a registry runs on besides its callers', all daemons, stopped by {@link #close()}:
 * <ul>
 *   <li>one timer, which only schedules (deadlines, renewals, polls) and never calls the store;</li>
 *   <li>{@linkplain #calls() calls} ({@value #CALL_THREADS} at most): the store calls that block (announcements,
 *   and, on a store without {@linkplain dev.distlock.core.spi.LockStore#async() asynchronous operations} such as
 *   Jedis, the calls of non-blocking callers, renewals and clean-ups), each of which may take a client's whole
 *   command timeout; more calls wait their turn;</li>
 *   <li>{@linkplain #steps() steps} ({@value #STEP_THREADS} at most): short work that never waits for the store: the
 *   steps of non-blocking callers' acquisitions, and what follows a store's asynchronous answer (never run on the
 *   client's own threads, which serve every user of its connection).</li>
 * </ul>
 */
final class BackgroundThreads implements AutoCloseable {

    /** Threads for the steps of non-blocking callers. */
    static final int STEP_THREADS = 8;

    /** Threads for blocking store calls. */
    static final int CALL_THREADS = 16;

    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor calls;
    private final ThreadPoolExecutor steps;

    BackgroundThreads() {
        timer = new ScheduledThreadPoolExecutor(1, daemon("distlock-timer"));
        timer.setRemoveOnCancelPolicy(true);
        // the executor wakes its thread whenever a new task becomes the earliest one; a no-op due every second stays
        // ahead of nearly every renewal, so scheduling one for a new hold wakes nobody
        timer.scheduleAtFixedRate(() -> { }, 1, 1, TimeUnit.SECONDS);
        calls = bounded(CALL_THREADS, "distlock-call-");
        steps = bounded(STEP_THREADS, "distlock-async-");
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

    /**
     * Runs what follows a store's asynchronous answer on a step thread, off the client's own thread (a caller's
     * continuation there would hold up every user of its connection); on this thread once the registry closed.
     */
    void afterAnswer(Runnable work) {
        try {
            steps.execute(work);
        } catch (RejectedExecutionException closed) {
            work.run();
        }
    }

    @Override
    public void close() {
        timer.shutdownNow();
        calls.shutdownNow();
        steps.shutdownNow();
    }

    /**
     * Up to {@code threads} threads, made when work comes and ended after 30 idle seconds; more work queues, in a
     * queue that takes work without a lock: a step handed over by the Redis client's I/O thread never parks it.
     */
    private static ThreadPoolExecutor bounded(int threads, String name) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 30, TimeUnit.SECONDS,
                new LinkedTransferQueue<>(), daemon(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
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
