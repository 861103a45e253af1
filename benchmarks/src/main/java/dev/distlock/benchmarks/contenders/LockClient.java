package dev.distlock.benchmarks.contenders;

/**
 * One process's view of a lock library: acquires locks by key and releases them. Safe for use by several
 * threads at once, each holding its own locks, as an application would share it.
 */
public interface LockClient extends AutoCloseable {

    /**
     * Acquires the lock {@code key} for the current thread, waiting at most {@code waitNanos}.
     *
     * @return the hold to release, or {@code null} if the wait ran out
     * @throws InterruptedException if interrupted while waiting
     */
    Hold tryLock(String key, long waitNanos) throws InterruptedException;

    /** Closes the connections and threads of this client. */
    @Override
    void close();

    /** A lock held by the thread that acquired it. */
    @FunctionalInterface
    interface Hold {

        /** Releases the lock; called by the thread that acquired it. */
        void release();
    }
}
