package dev.distlock.core.support;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The retries of one acquisition after transient backend errors (a cluster slot moving, a failover, a
 * connection reset, a command timeout): tried again with a fresh token, after a short pause that doubles
 * from 10 ms to at most 250 ms (with jitter), for as long as the caller's wait lasts.
 */
final class TransientRetries {

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);

    private long nextPauseNanos = FIRST_PAUSE_NANOS;
    private long pendingPauseNanos;

    /** Sleeps a given time, honouring the caller's interrupt policy. */
    @FunctionalInterface
    interface Sleeper {

        void sleep(long nanos) throws InterruptedException;
    }

    /**
     * After a transient failure: whether there is time for another try after the next pause.
     *
     * @param remainingNanos what is left of the caller's wait ({@link Long#MAX_VALUE}: no limit)
     */
    boolean retryWithin(long remainingNanos) {
        long pause = nextPauseNanos / 2 + ThreadLocalRandom.current().nextLong(nextPauseNanos / 2 + 1);
        if (remainingNanos <= pause) {
            return false;
        }
        pendingPauseNanos = pause;
        nextPauseNanos = Math.min(MAX_PAUSE_NANOS, nextPauseNanos * 2);
        return true;
    }

    /** Sleeps the pause a retry asked for, if any. */
    void pause(Sleeper sleeper) throws InterruptedException {
        long pause = pendingPauseNanos;
        pendingPauseNanos = 0;
        if (pause > 0) {
            sleeper.sleep(pause);
        }
    }
}
