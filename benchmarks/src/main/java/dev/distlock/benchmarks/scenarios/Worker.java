package dev.distlock.benchmarks.scenarios;

import dev.distlock.benchmarks.contenders.LockClient;
import dev.distlock.benchmarks.contenders.LockClient.Hold;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * One thread's loop: acquire (the wait is measured), increment the guarded counter, hold, release, rest; until
 * the phase's deadline. A try still waiting at the deadline gives up then and counts with the time it waited.
 */
final class Worker implements Runnable {

    private static final long MAX_RECORDED_NANOS = TimeUnit.MINUTES.toNanos(10);
    private static final long PAUSE_AFTER_ERROR_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LockClient client;
    private final String key;
    private final GuardedCounter counter;
    private final Workload workload;
    private final PhaseClock clock;

    final Histogram waits = new Histogram(MAX_RECORDED_NANOS, 3);
    /** Acquisitions before the deadline: these make ops/s. */
    long acquired;
    /** Every entry into the critical section, including acquisitions granted after the deadline. */
    long entries;
    /** Tries that ended without the lock (at the deadline, unless a contender gives up early). */
    long unfinished;
    long errors;
    RuntimeException firstError;
    long heldNanos;

    Worker(LockClient client, String key, GuardedCounter counter, Workload workload, PhaseClock clock) {
        this.client = client;
        this.key = key;
        this.counter = counter;
        this.workload = workload;
        this.clock = clock;
    }

    @Override
    public void run() {
        long deadline = clock.awaitStart();
        try {
            long begin;
            while ((begin = System.nanoTime()) < deadline) {
                Hold hold = tryLock(deadline - begin);
                long acquiredAt = System.nanoTime();
                waits.recordValue(Math.min(acquiredAt - begin, MAX_RECORDED_NANOS));
                if (hold == null) {
                    unfinished++;
                    continue;
                }
                criticalSection(acquiredAt);
                release(hold);
                if (acquiredAt <= deadline) {
                    acquired++;
                }
                if (workload.restNanos() > 0) {
                    Pauses.until(System.nanoTime() + workload.restNanos());
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt(); // the coordinator gave up on this thread
        }
    }

    private Hold tryLock(long waitNanos) throws InterruptedException {
        try {
            return client.tryLock(key, waitNanos);
        } catch (RuntimeException ex) {
            failed(ex);
            LockSupport.parkNanos(PAUSE_AFTER_ERROR_NANOS); // a broken backend must not turn this into a spin
            return null;
        }
    }

    private void criticalSection(long acquiredAt) {
        entries++;
        counter.enterAndIncrement();
        if (workload.holdNanos() > 0) {
            Pauses.until(acquiredAt + workload.holdNanos());
            heldNanos += System.nanoTime() - acquiredAt;
        }
        counter.leave();
    }

    private void release(Hold hold) {
        try {
            hold.release();
        } catch (RuntimeException ex) {
            failed(ex);
        }
    }

    private void failed(RuntimeException ex) {
        errors++;
        if (firstError == null) {
            firstError = ex;
        }
    }
}
