package dev.distlock.benchmarks.results;

import java.util.List;
import java.util.Map;

/**
 * What a run measured, in the shape of the machine-readable results file ({@link ResultsFile}): per scenario and
 * contender the figures of the report's tables, summarised over the rounds. The charts are drawn from this alone, so a
 * file written by a run, or one transcribed from a published report, renders the same way.
 *
 * @param format the file's format, {@link #FORMAT}
 * @param source how the figures were obtained: measured by the harness, or transcribed from a report
 * @param date the day of the run, ISO-8601
 * @param machine where it ran
 * @param versions the version of each library and of Redis, by name
 * @param settings how each measurement was run
 * @param contenders each contender's name and what runs, in run order
 * @param scenarios the scenarios, in run order, with ratios to the floor
 * @param roundTrips round trips and Redis commands of one uncontended lock+unlock, per contender
 * @param cost the Java-side cost of one uncontended lock+unlock, per case
 * @param topologies each topology's name and what runs, in run order
 * @param topologyScenarios distlock's scenarios on those topologies, with ratios to {@code single}
 */
public record RunResults(int format, String source, String date, Machine machine, Map<String, String> versions,
        Settings settings, Map<String, String> contenders, List<ScenarioResult> scenarios,
        List<RoundTripResult> roundTrips, List<CostFigure> cost, Map<String, String> topologies,
        List<ScenarioResult> topologyScenarios) {

    /** The format this code writes and reads. */
    public static final int FORMAT = 1;

    /** {@link #source} of a file that a run wrote. */
    public static final String MEASURED = "measured by the benchmark harness";

    public RunResults {
        versions = versions == null ? Map.of() : versions;
        contenders = contenders == null ? Map.of() : contenders;
        scenarios = scenarios == null ? List.of() : scenarios;
        roundTrips = roundTrips == null ? List.of() : roundTrips;
        cost = cost == null ? List.of() : cost;
        topologies = topologies == null ? Map.of() : topologies;
        topologyScenarios = topologyScenarios == null ? List.of() : topologyScenarios;
    }

    /**
     * The machine of the run: absolute numbers mean little elsewhere.
     *
     * @param cores processors available to the JVM
     * @param cpu the CPU model
     * @param memoryGib physical memory
     * @param os operating system and kernel
     * @param java the JVM and its version
     * @param loadAtStart load averages over 1, 5 and 15 minutes when the run started
     * @param loadAtEnd the same when it ended
     */
    public record Machine(int cores, String cpu, double memoryGib, String os, String java, String loadAtStart,
            String loadAtEnd) {
    }

    /**
     * How each measurement ran.
     *
     * @param measurementSeconds timed length of each measurement
     * @param warmupSeconds untimed run on the same clients before it
     * @param warmupPass whether an untimed pass through everything came before the first round
     * @param rounds rounds, every contender running every scenario in each
     * @param threads threads of scenarios 2, 3 and 5
     */
    public record Settings(double measurementSeconds, double warmupSeconds, boolean warmupPass, int rounds,
            int threads) {
    }

    /**
     * One scenario, every contender.
     *
     * @param number the scenario's number
     * @param title what the threads do
     * @param label a short title for a chart's axis
     * @param baseline the contender the ratios are taken against
     * @param rows one per contender, in run order
     */
    public record ScenarioResult(int number, String title, String label, String baseline, List<ContenderResult> rows) {
    }

    /**
     * One contender in one scenario over all rounds. Latencies are the acquire wait in milliseconds, waits unfinished
     * at the deadline included, over all rounds.
     *
     * @param contender the contender's name
     * @param opsPerSecond mean lock+unlock pairs per second over the rounds
     * @param ratio mean of the per-round ratios of {@code opsPerSecond} to the baseline's; null without a baseline
     * @param ratioMin the lowest round's ratio; null without a baseline
     * @param ratioMax the highest round's ratio; null without a baseline
     * @param p50Millis median acquire wait
     * @param p99Millis 99th percentile
     * @param p999Millis 99.9th percentile
     * @param maxMillis the longest wait; null where not known
     * @param fairness fewest acquisitions of a thread divided by the most, worst round; null where not known
     * @param redisCommandsPerLock Redis commands per lock+unlock, script internals included
     * @param redisCpuMicrosPerLock Redis CPU microseconds per lock+unlock
     * @param exclusionHeld whether mutual exclusion held in every round
     */
    public record ContenderResult(String contender, double opsPerSecond, Double ratio, Double ratioMin,
            Double ratioMax, double p50Millis, double p99Millis, double p999Millis, Double maxMillis, Double fairness,
            double redisCommandsPerLock, double redisCpuMicrosPerLock, boolean exclusionHeld) {
    }

    /**
     * What one uncontended lock+unlock sends to Redis, counted with {@code MONITOR}.
     *
     * @param contender the contender's name
     * @param roundTrips commands the client sent (one round trip each)
     * @param commands Redis commands including those its scripts ran
     */
    public record RoundTripResult(String contender, double roundTrips, double commands) {
    }

    /**
     * The Java-side cost of one uncontended lock+unlock in one case; medians over the runs.
     *
     * @param what the case
     * @param wallNanos elapsed time
     * @param jvmCpuNanos CPU time of all Java threads
     * @param callerBytes bytes allocated by the calling thread
     * @param jvmBytes bytes allocated by all Java threads
     */
    public record CostFigure(String what, double wallNanos, double jvmCpuNanos, double callerBytes, double jvmBytes) {
    }
}
