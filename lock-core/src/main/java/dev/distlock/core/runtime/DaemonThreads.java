package dev.distlock.core.runtime;

import java.util.concurrent.LinkedTransferQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/** The one place distlock makes threads: daemons named {@code distlock-...}, so none keeps a JVM from exiting. */
public final class DaemonThreads {

    private DaemonThreads() {
    }

    /**
     * Daemon threads named {@code name}, or {@code name} and a count when it ends with {@code -}.
     *
     * @param name the thread name, starting with {@code distlock-}
     */
    public static ThreadFactory factory(String name) {
        AtomicInteger count = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, name.endsWith("-") ? name + count.incrementAndGet() : name);
            thread.setDaemon(true);
            return thread;
        };
    }

    /**
     * Up to {@code threads} daemon threads, made when work comes and ended after {@code idleSeconds} without work;
     * more work queues, in a queue that takes work without a lock: a task handed over by a client's I/O thread never
     * parks it.
     */
    public static ThreadPoolExecutor pool(String name, int threads, long idleSeconds) {
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, idleSeconds, TimeUnit.SECONDS,
                new LinkedTransferQueue<>(), factory(name));
        pool.allowCoreThreadTimeOut(true);
        return pool;
    }
}
