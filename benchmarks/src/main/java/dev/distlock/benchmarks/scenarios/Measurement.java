package dev.distlock.benchmarks.scenarios;

import dev.distlock.benchmarks.redis.RedisCounters;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * One timed run of one contender in one scenario.
 *
 * @param contender the contender's name
 * @param scenario the scenario
 * @param round the round, from 1
 * @param workload what the threads did
 * @param seconds the measured time
 * @param acquiredPerThread acquisitions before the deadline, per thread
 * @param entries entries into the critical section, including acquisitions granted after the deadline
 * @param counterTotal the guarded counters summed after the run: equal to {@code entries} if no update was lost
 * @param overlaps entries while another thread was inside (0 if mutual exclusion held)
 * @param unfinished tries that ended without the lock (still waiting at the deadline)
 * @param errors exceptions thrown by the contender
 * @param firstError the first of them, or {@code null}
 * @param waits every acquire wait in nanoseconds, unfinished ones included
 * @param heldNanos time spent holding the lock in the scenario's hold pause, summed over threads
 * @param redis what Redis did meanwhile
 * @param stuckThreads threads that had not finished a minute after the deadline (a contender bug)
 */
public record Measurement(String contender, Scenario scenario, int round, Workload workload, double seconds,
        long[] acquiredPerThread, long entries, long counterTotal, long overlaps, long unfinished, long errors,
        String firstError, Histogram waits, long heldNanos, RedisCounters redis, int stuckThreads) {

    /** Acquisitions before the deadline. */
    public long acquired() {
        return Arrays.stream(acquiredPerThread).sum();
    }

    /** Acquisitions per second. */
    public double opsPerSecond() {
        return acquired() / seconds;
    }

    /** Fewest acquisitions of a thread divided by most; 1 for a single thread or perfect fairness. */
    public double fairness() {
        long most = Arrays.stream(acquiredPerThread).max().orElse(0);
        long fewest = Arrays.stream(acquiredPerThread).min().orElse(0);
        return most == 0 ? 0 : fewest / (double) most;
    }

    /** Whether no two threads were ever inside at once and no increment was lost. */
    public boolean exclusionHeld() {
        return overlaps == 0 && counterTotal == entries && stuckThreads == 0;
    }

    /** Redis commands (script internals included) per lock and unlock. */
    public double commandsPerOp() {
        return entries == 0 ? 0 : redis.commands() / (double) entries;
    }

    /** Redis CPU microseconds per lock and unlock. */
    public double redisCpuMicrosPerOp() {
        return entries == 0 ? 0 : redis.cpuSeconds() * 1e6 / entries;
    }

    /** Mean time a hold lasted in the hold pause, in ms; 0 without one. */
    public double meanHoldMillis() {
        return entries == 0 ? 0 : heldNanos / 1e6 / entries;
    }
}
