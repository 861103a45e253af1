package dev.distlock.core.engine.store;

import dev.distlock.core.engine.runtime.EngineRuntime;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;

/**
 * The retries of one acquisition after transient backend errors (a cluster slot moving, a failover, a
 * connection reset, a command timeout): tried again with a fresh token, after a short pause that doubles
 * from 10 ms to at most 250 ms (with jitter, {@link #pauseNanos}), for as long as the caller's wait lasts; the last
 * pause is cut to what is left of it. A streak of errors without any answer that lasts {@link #PERSISTENT_NANOS} is
 * reported once (a replica that refuses writes, a cluster that stays down), while the call goes on waiting. A
 * release the store refused is sent again after the same pauses ({@link StoreCalls#refusedPauseNanos}).
 */
public final class TransientRetries {

    private static final long FIRST_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(10);
    private static final long MAX_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(250);
    /** How long a streak of transient errors lasts before it is reported: a second. */
    public static final long PERSISTENT_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final EngineRuntime runtime;
    private final Reporter reporter;
    /** How many retries were asked for so far. */
    private int retries;
    private long pendingPauseNanos;
    /** When the current streak of errors began (0: none), and whether it was reported. */
    private long streakStartNanos;
    private boolean reported;

    public TransientRetries(EngineRuntime runtime, Reporter reporter) {
        this.runtime = runtime;
        this.reporter = reporter;
    }

    /** Reports a persistent streak of transient errors. */
    @FunctionalInterface
    public interface Reporter {

        void persistent(RuntimeException lastFailure);
    }

    /** A try met a transient error: the streak goes on, and is reported once when it has lasted long enough. */
    void failed(RuntimeException failure) {
        long now = runtime.nanoTime();
        if (streakStartNanos == 0) {
            streakStartNanos = now;
        } else if (!reported && now - streakStartNanos >= PERSISTENT_NANOS) {
            reported = true;
            reporter.persistent(failure);
        }
    }

    /** A try got an answer: the streak ends. */
    void answered() {
        streakStartNanos = 0;
    }

    /**
     * After a transient failure: whether there is time for another try, after the next pause or what is left of
     * the wait if that is shorter.
     *
     * @param remainingNanos what is left of the caller's wait ({@link Long#MAX_VALUE}: no limit)
     */
    boolean retryWithin(long remainingNanos) {
        if (remainingNanos <= 0) {
            return false;
        }
        pendingPauseNanos = Math.min(pauseNanos(runtime.random(), ++retries), remainingNanos);
        return true;
    }

    /**
     * The pause before the {@code retry}th retry (the first is 1): 10 ms doubling up to 250 ms, of which up to half
     * is left out at random, so that the callers a failover or a slot migration met together do not retry together.
     */
    public static long pauseNanos(RandomGenerator random, int retry) {
        long full = Math.min(MAX_PAUSE_NANOS, FIRST_PAUSE_NANOS << Math.min(Math.max(retry, 1) - 1, 20));
        return full / 2 + random.nextLong(full / 2 + 1);
    }

    /** The pause the last {@link #retryWithin} asked for before the retry (0 if none), once. */
    long takePause() {
        long pause = pendingPauseNanos;
        pendingPauseNanos = 0;
        return pause;
    }
}
