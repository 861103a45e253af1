package dev.distlock.benchmarks.async;

import dev.distlock.benchmarks.redis.RedisCounters;

/**
 * One measurement of non-blocking callers.
 *
 * @param kind which of the checks ran
 * @param what what ran: whose calls, how many, on which names
 * @param calls lock+unlock pairs completed
 * @param seconds from the first call to the last unlock
 * @param threadsIdle the JVM's live threads before the calls (the sampler's own included)
 * @param threadsPeak the most live threads seen while they ran
 * @param inArrivalOrder whether the holds came in the order the calls were made (on one name), or {@code null}
 * @param redis what Redis did from the first call to the last unlock
 */
public record AsyncResult(Kind kind, String what, int calls, double seconds, int threadsIdle, int threadsPeak,
        Boolean inArrivalOrder, RedisCounters redis) {

    /** The checks of {@link AsyncWaitersCheck}. */
    public enum Kind {
        ONE_NAME, ONE_NAME_VIRTUAL_THREADS, ONE_NAME_ANNOTATED, ONE_NAME_VIRTUAL_THREADS_WITH_BODY,
        DISTINCT_FLOOR, DISTINCT, DISTINCT_ANNOTATED
    }

    public double callsPerSecond() {
        return calls / seconds;
    }

    /** Redis commands per lock+unlock, script internals included. */
    public double commandsPerCall() {
        return redis.commands() / (double) calls;
    }

    /** Redis CPU time per lock+unlock, in microseconds. */
    public double redisCpuMicrosPerCall() {
        return redis.cpuSeconds() * 1e6 / calls;
    }
}
