package dev.distlock.benchmarks.report;

import dev.distlock.benchmarks.redis.RedisCounters;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.Scenario;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * One contender in one scenario over all rounds.
 *
 * @param scenario the scenario
 * @param contender the contender's name
 * @param rounds its measurements, one per round
 * @param ratios its ops/s divided by the baseline's (the floor's) of the same round, per round; empty without one
 */
public record ScenarioSummary(Scenario scenario, String contender, List<Measurement> rounds, List<Double> ratios) {

    /** Mean ops/s over the rounds. */
    public double opsPerSecond() {
        return rounds.stream().mapToDouble(Measurement::opsPerSecond).average().orElse(0);
    }

    /** Mean ratio to the baseline, NaN without one. */
    public double ratio() {
        return ratios.stream().mapToDouble(Double::doubleValue).average().orElse(Double.NaN);
    }

    /** Lowest per-round ratio to the baseline. */
    public double ratioMin() {
        return ratios.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    /** Highest per-round ratio to the baseline. */
    public double ratioMax() {
        return ratios.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    /** Acquire waits of all rounds together, nanoseconds. */
    public Histogram waits() {
        Histogram all = new Histogram(3);
        rounds.forEach(m -> all.add(m.waits()));
        return all;
    }

    /** The wait at {@code percentile} (e.g. 99.9) in milliseconds. */
    public double waitMillis(double percentile) {
        return waits().getValueAtPercentile(percentile) / 1e6;
    }

    /** The worst round's fairness. */
    public double fairness() {
        return rounds.stream().mapToDouble(Measurement::fairness).min().orElse(0);
    }

    /** What Redis did in all rounds together. */
    public RedisCounters redis() {
        return rounds.stream().map(Measurement::redis).reduce(RedisCounters.none(), RedisCounters::plus);
    }

    /** Lock+unlock pairs of all rounds, late ones included (the denominator of the per-op Redis figures). */
    public long entries() {
        return rounds.stream().mapToLong(Measurement::entries).sum();
    }

    /** Redis commands per lock+unlock, script internals included. */
    public double commandsPerOp() {
        return entries() == 0 ? 0 : redis().commands() / (double) entries();
    }

    /** Script calls ({@code FCALL}, {@code EVALSHA}, {@code EVAL}) per lock+unlock: round trips, for distlock. */
    public double scriptCallsPerOp() {
        Map<String, Long> calls = redis().calls();
        long scripts = calls.getOrDefault("fcall", 0L) + calls.getOrDefault("evalsha", 0L)
                + calls.getOrDefault("eval", 0L);
        return entries() == 0 ? 0 : scripts / (double) entries();
    }

    /** Redis CPU microseconds per lock+unlock. */
    public double redisCpuMicrosPerOp() {
        return entries() == 0 ? 0 : redis().cpuSeconds() * 1e6 / entries();
    }

    /** Cluster-bus {@code PUBLISH} messages per lock+unlock; 0 outside a cluster. */
    public double busPublishesPerOp() {
        return entries() == 0 ? 0 : redis().busPublishes() / (double) entries();
    }

    /** Whether mutual exclusion held in every round. */
    public boolean exclusionHeld() {
        return rounds.stream().allMatch(Measurement::exclusionHeld);
    }

    /** Tries still waiting at a deadline, all rounds. */
    public long unfinished() {
        return rounds.stream().mapToLong(Measurement::unfinished).sum();
    }

    /** Exceptions from the contender, all rounds. */
    public long errors() {
        return rounds.stream().mapToLong(Measurement::errors).sum();
    }

    /** The first exception's text, or {@code null}. */
    public String firstError() {
        return rounds.stream().map(Measurement::firstError).filter(Objects::nonNull).findFirst().orElse(null);
    }

    /** Ops/s as a share of the ideal (hand-off only; NaN where the scenario has no ideal). */
    public double shareOfIdeal() {
        double ideal = rounds.get(0).workload().idealOpsPerSecond();
        return ideal > 0 ? opsPerSecond() / ideal : Double.NaN;
    }

    /** Mean hold in the hold pause, milliseconds. */
    public double meanHoldMillis() {
        long entries = entries();
        return entries == 0 ? 0 : rounds.stream().mapToLong(Measurement::heldNanos).sum() / 1e6 / entries;
    }
}
