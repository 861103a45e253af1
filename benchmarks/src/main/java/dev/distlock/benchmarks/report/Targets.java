package dev.distlock.benchmarks.report;

import dev.distlock.benchmarks.BenchmarkResults;
import dev.distlock.benchmarks.async.AsyncResult;
import dev.distlock.benchmarks.async.AsyncResult.Kind;
import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.cost.CostResult;
import dev.distlock.benchmarks.jmh.JmhResult;
import dev.distlock.benchmarks.memory.MemoryResult;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.permits.PermitsComparison;
import dev.distlock.benchmarks.permits.PermitsResult;
import dev.distlock.benchmarks.readwrite.ReadWriteComparison;
import dev.distlock.benchmarks.readwrite.ReadWriteResult;
import dev.distlock.benchmarks.readwrite.ReadersComparison;
import dev.distlock.benchmarks.readwrite.ReadersResult;
import dev.distlock.benchmarks.renewals.RenewalResult;
import dev.distlock.benchmarks.report.TargetStatus.Verdict;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.Scenario;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * distlock's targets, checked against one run's results: the protocol's budgets (ratios to the floor per scenario,
 * commands per lock, Redis CPU), the non-blocking callers', the watchdog's renewal
 * scripts per period and the earlier ones that still hold (latency, hand-off pace, annotation overhead, memory,
 * exclusion).
 */
public final class Targets {

    private static final String DISTLOCK = "distlock";
    private static final Map<Scenario, Double> MIN_RATIO = Map.of(Scenario.UNCONTENDED, 0.95,
            Scenario.DISTINCT_KEYS, 0.95, Scenario.ONE_KEY, 1.3, Scenario.HAND_OFF, 0.97);
    private static final double MIN_FAIRNESS = 0.9;
    private static final double MAX_P999_MILLIS = 50;
    private static final double MIN_HAND_OFF_SHARE = 0.95;
    private static final double MAX_ROUND_TRIPS = 2;
    private static final double MAX_COMMANDS = 5;
    private static final double MAX_CONTENDED_COMMANDS = 10;
    /** One call per lock, with a little room for the releases that find nobody waiting. */
    private static final double MAX_LOCAL_HAND_OFF_CALLS = 1.1;
    private static final double MAX_REDIS_CPU_TO_FLOOR = 1.3;
    private static final double MAX_ALLOCATED_BYTES = 2048;
    private static final double MAX_ANNOTATION_NANOS = 2000;
    private static final double MAX_MONO_TO_VIRTUAL_THREADS = 1.2;
    /** "At the baseline's pace", read with this machine's noise (differences under about 20% are noise). */
    private static final double MIN_DISTINCT_MONO_TO_FLOOR = 0.8;
    /** Threads beyond the idle count that still read as flat: the registry's own pools, not one per waiter. */
    private static final int FLAT_THREADS = 50;

    private Targets() {
    }

    /** Every target, in the report's order. */
    public static List<TargetStatus> evaluate(BenchmarkResults results, Summaries summaries) {
        List<TargetStatus> targets = new ArrayList<>();
        for (Scenario scenario : MIN_RATIO.keySet().stream().sorted().toList()) {
            targets.add(ratioToFloor(summaries, scenario));
        }
        targets.add(check(summaries, Scenario.ONE_KEY, "scenario 3: fairness ≥ 0.9",
                s -> Format.number(s.fairness(), 2), s -> s.fairness() >= MIN_FAIRNESS));
        targets.add(check(summaries, Scenario.ONE_KEY, "scenario 3: p99.9 acquire < 50 ms",
                s -> Format.millis(s.waitMillis(99.9)), s -> s.waitMillis(99.9) < MAX_P999_MILLIS));
        targets.add(check(summaries, Scenario.HAND_OFF, "scenario 4: ≥ 95% of the ideal 500 locks/s",
                s -> Format.percent(s.shareOfIdeal()), s -> s.shareOfIdeal() >= MIN_HAND_OFF_SHARE));
        for (Scenario scenario : List.of(Scenario.ONE_KEY, Scenario.HAND_OFF)) {
            targets.add(check(summaries, scenario, "scenario " + scenario.number() + ": ≤ 10 Redis commands per "
                    + "contended lock", s -> Format.number(s.commandsPerOp(), 1),
                    s -> s.commandsPerOp() <= MAX_CONTENDED_COMMANDS));
        }
        targets.add(check(summaries, Scenario.LOCAL_HAND_OFF, "scenario 5: one round trip per local hand-off "
                + "(script calls per lock+unlock ≤ " + Format.number(MAX_LOCAL_HAND_OFF_CALLS, 1) + ")",
                s -> Format.number(s.scriptCallsPerOp(), 2), s -> s.scriptCallsPerOp() <= MAX_LOCAL_HAND_OFF_CALLS));
        targets.add(redisCpu(summaries));
        targets.addAll(roundTrips(results.roundTrips()));
        targets.add(allocation(results.cost()));
        targets.add(annotation(results.jmh()));
        targets.addAll(memory(results.memory()));
        targets.add(exclusion(results.measurements()));
        targets.add(annotatedMonosOnOneName(results.async()));
        targets.add(annotatedMonosOnDistinctNames(results.async()));
        targets.add(renewals(results.renewals()));
        targets.add(permits(results.permits()));
        targets.add(readMostly(results.readWrite()));
        targets.add(readers(results.readers()));
        return targets;
    }

    private static TargetStatus ratioToFloor(Summaries summaries, Scenario scenario) {
        double min = MIN_RATIO.get(scenario);
        String target = "scenario " + scenario.number() + ": ≥ " + Format.number(min, 2) + " of the floor";
        Optional<ScenarioSummary> summary = summaries.find(scenario, DISTLOCK).filter(s -> !s.ratios().isEmpty());
        return summary.map(s -> new TargetStatus(target,
                        Format.ratio(s.ratio(), s.ratioMin(), s.ratioMax()) + " × floor", Verdict.of(s.ratio() >= min)))
                .orElse(new TargetStatus(target, "—", Verdict.NOT_MEASURED));
    }

    private static TargetStatus check(Summaries summaries, Scenario scenario, String target,
            Function<ScenarioSummary, String> measured, Predicate<ScenarioSummary> met) {
        return summaries.find(scenario, DISTLOCK)
                .map(s -> new TargetStatus(target, measured.apply(s), Verdict.of(met.test(s))))
                .orElse(new TargetStatus(target, "—", Verdict.NOT_MEASURED));
    }

    private static TargetStatus redisCpu(Summaries summaries) {
        String target = "scenario 1: Redis CPU per lock+unlock ≤ 1.3× the floor's";
        Optional<ScenarioSummary> ours = summaries.find(Scenario.UNCONTENDED, DISTLOCK);
        Optional<ScenarioSummary> floor = summaries.find(Scenario.UNCONTENDED, Contenders.FLOOR);
        if (ours.isEmpty() || floor.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        double mine = ours.get().redisCpuMicrosPerOp();
        double theirs = floor.get().redisCpuMicrosPerOp();
        return new TargetStatus(target, Format.number(mine, 1) + " µs vs floor " + Format.number(theirs, 1) + " µs",
                Verdict.of(mine <= theirs * MAX_REDIS_CPU_TO_FLOOR));
    }

    /** The JVM's allocation per blocking lock+unlock on Redis, with the floor's two Lettuce calls beside it. */
    private static TargetStatus allocation(List<CostResult> cost) {
        String target = "uncontended lock+unlock: ≤ 2 KB allocated (whole JVM, `--parts cost`)";
        Optional<CostResult> ours = cost.stream().filter(c -> c.what().equals(CostResult.REDIS_LOCK)).findFirst();
        if (ours.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        double bytes = ours.get().median(CostResult.Run::jvmBytes);
        String floor = cost.stream().filter(c -> c.what().equals(CostResult.FLOOR)).findFirst()
                .map(c -> " vs floor " + Format.number(c.median(CostResult.Run::jvmBytes), 0) + " B").orElse("");
        return new TargetStatus(target, Format.number(bytes, 0) + " B" + floor,
                Verdict.of(bytes <= MAX_ALLOCATED_BYTES));
    }

    private static List<TargetStatus> roundTrips(List<RoundTrips> counts) {
        String tripsTarget = "uncontended lock+unlock: ≤ 2 round trips";
        String commandsTarget = "uncontended lock+unlock: ≤ 5 Redis commands incl. script internals";
        Optional<RoundTrips> ours = counts.stream().filter(c -> c.contender().equals(DISTLOCK)).findFirst();
        if (ours.isEmpty()) {
            return List.of(new TargetStatus(tripsTarget, "—", Verdict.NOT_MEASURED),
                    new TargetStatus(commandsTarget, "—", Verdict.NOT_MEASURED));
        }
        RoundTrips c = ours.get();
        return List.of(
                new TargetStatus(tripsTarget, Format.number(c.roundTripsPerOp(), 2),
                        Verdict.of(c.roundTripsPerOp() <= MAX_ROUND_TRIPS)),
                new TargetStatus(commandsTarget, Format.number(c.commandsPerOp(), 2),
                        Verdict.of(c.commandsPerOp() <= MAX_COMMANDS)));
    }

    private static TargetStatus annotation(List<JmhResult> jmh) {
        String target = "annotation layer: < 2 µs per call over the direct registry call";
        Optional<Double> overhead = AnnotationOverhead.nanos(jmh);
        return overhead.map(nanos -> new TargetStatus(target, Format.number(nanos / 1000, 2) + " µs",
                        Verdict.of(nanos < MAX_ANNOTATION_NANOS)))
                .orElse(new TargetStatus(target, "—", Verdict.NOT_MEASURED));
    }

    private static List<TargetStatus> memory(List<MemoryResult> results) {
        if (results.isEmpty()) {
            return List.of(new TargetStatus("retained heap does not grow with names", "—", Verdict.NOT_MEASURED));
        }
        return results.stream().map(r -> new TargetStatus(r.registry() + ": retained heap does not grow with names",
                Format.number(r.bytesPerName(), 2) + " bytes per name", Verdict.of(r.flat()))).toList();
    }

    /** 10,000 annotated Monos on one name against the blocking API on as many virtual threads. */
    private static TargetStatus annotatedMonosOnOneName(List<AsyncResult> async) {
        String target = "annotated Monos on one name (1 ms body): all in arrival order, threads flat, "
                + "time ≤ 1.2× that of as many virtual threads";
        Optional<AsyncResult> monos = find(async, Kind.ONE_NAME_ANNOTATED);
        Optional<AsyncResult> virtual = find(async, Kind.ONE_NAME_VIRTUAL_THREADS_WITH_BODY);
        if (monos.isEmpty() || virtual.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        AsyncResult m = monos.get();
        double ratio = m.seconds() / virtual.get().seconds();
        boolean flat = m.threadsPeak() - m.threadsIdle() <= FLAT_THREADS;
        return new TargetStatus(target, Format.number(ratio, 2) + "× (" + Format.number(m.seconds(), 1) + " s vs "
                + Format.number(virtual.get().seconds(), 1) + " s), threads " + m.threadsIdle() + " → "
                + m.threadsPeak() + ", in order: " + (Boolean.TRUE.equals(m.inArrivalOrder()) ? "yes" : "no"),
                Verdict.of(ratio <= MAX_MONO_TO_VIRTUAL_THREADS && flat && Boolean.TRUE.equals(m.inArrivalOrder())));
    }

    /** Annotated Monos on distinct names at the pace of the same calls on Lettuce's async API. */
    private static TargetStatus annotatedMonosOnDistinctNames(List<AsyncResult> async) {
        String target = "annotated Monos on distinct names at the non-blocking floor's pace (≥ 0.8, the noise)";
        double monos = medianPace(async, Kind.DISTINCT_ANNOTATED);
        double floor = medianPace(async, Kind.DISTINCT_FLOOR);
        if (Double.isNaN(monos) || Double.isNaN(floor)) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        return new TargetStatus(target, Format.number(monos / floor, 2) + " × floor (" + Format.number(monos, 0)
                + " vs " + Format.number(floor, 0) + " calls/s, medians)",
                Verdict.of(monos / floor >= MIN_DISTINCT_MONO_TO_FLOOR));
    }

    /** The holds the renewal budget is set for; a run with fewer does not measure it. */
    private static final int BUDGET_HOLDS = 10_000;

    /** Renewals due together go to Redis as one script call, so many holds cost few scripts per period. */
    private static TargetStatus renewals(List<RenewalResult> renewals) {
        String target = "10,000 renewed holds: ≤ " + Format.number(RenewalResult.MAX_SCRIPTS_PER_PERIOD, 0)
                + " renewal scripts per period on one server";
        if (renewals.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        RenewalResult r = renewals.get(0);
        return new TargetStatus(target, Format.number(r.scriptsPerPeriod(), 1) + " scripts per period ("
                + Format.number(r.holds(), 0) + " holds, lease " + Format.number(r.lease().toMillis() / 1000.0, 0)
                + " s), " + (r.allHeld() ? "all held" : Format.number(r.heldAtEnd(), 0) + " still held"),
                r.holds() < BUDGET_HOLDS ? Verdict.NOT_MEASURED : Verdict.of(r.withinBudget()));
    }

    /** Takings of a semaphore's permits: at least 1.3 times Redisson's, never more inside than permits. */
    private static TargetStatus permits(List<PermitsResult> permits) {
        String target = "permits (" + PermitsComparison.WORKLOAD + "): ≥ "
                + Format.number(PermitsResult.MIN_RATIO_TO_REDISSON, 1) + " × Redisson's takings, at most "
                + PermitsComparison.PERMITS + " inside";
        Optional<PermitsResult> ours = permits.stream().filter(r -> r.contender().equals("distlock")).findFirst();
        Optional<PermitsResult> theirs = permits.stream().filter(r -> r.contender().equals("redisson")).findFirst();
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        double ratio = ours.get().median() / theirs.get().median();
        int most = permits.stream().mapToInt(PermitsResult::mostInside).max().orElse(0);
        return new TargetStatus(target, Format.number(ratio, 2) + " × Redisson, at most " + most + " inside",
                Verdict.of(ratio >= PermitsResult.MIN_RATIO_TO_REDISSON && most <= PermitsComparison.PERMITS));
    }

    /** A read-mostly load on a read-write lock: at least 1.3 times Redisson's, never a writer beside a holder. */
    private static TargetStatus readMostly(List<ReadWriteResult> readWrite) {
        String target = "read-mostly (" + ReadWriteComparison.WORKLOAD + "): ≥ "
                + Format.number(ReadWriteResult.MIN_RATIO_TO_REDISSON, 1) + " × Redisson `RReadWriteLock`, "
                + "never a writer beside another holder";
        Optional<ReadWriteResult> ours = readWrite.stream().filter(r -> r.contender().equals(DISTLOCK)).findFirst();
        Optional<ReadWriteResult> theirs = readWrite.stream().filter(r -> r.contender().equals("redisson"))
                .findFirst();
        if (ours.isEmpty() || theirs.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        double ratio = ours.get().median() / theirs.get().median();
        long overlaps = ours.get().writerOverlaps();
        return new TargetStatus(target, Format.number(ratio, 2) + " × Redisson, " + overlaps + " writer overlaps",
                Verdict.of(ratio >= ReadWriteResult.MIN_RATIO_TO_REDISSON && ours.get().exclusionHeld()));
    }

    /** Readers of one name go in together: many times the holds of the exclusive lock on one name. */
    private static TargetStatus readers(List<ReadersResult> readers) {
        String target = ReadersComparison.THREADS + " readers ≥ "
                + Format.number(ReadersResult.MIN_RATIO_TO_EXCLUSIVE, 0) + "× the exclusive lock on one name";
        if (readers.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        ReadersResult r = readers.get(0);
        return new TargetStatus(target, Format.number(r.ratio(), 2) + "× (" + Format.number(r.medianReads(), 0)
                + " vs " + Format.number(r.medianExclusive(), 0) + " holds/s, medians), most readers inside at once "
                + r.mostReaders(), Verdict.of(r.ratio() >= ReadersResult.MIN_RATIO_TO_EXCLUSIVE
                        && r.mostExclusive() <= 1));
    }

    private static Optional<AsyncResult> find(List<AsyncResult> async, Kind kind) {
        return async.stream().filter(r -> r.kind() == kind).findFirst();
    }

    private static double medianPace(List<AsyncResult> async, Kind kind) {
        double[] paces = async.stream().filter(r -> r.kind() == kind).mapToDouble(AsyncResult::callsPerSecond)
                .sorted().toArray();
        return paces.length == 0 ? Double.NaN : paces[paces.length / 2];
    }

    private static TargetStatus exclusion(List<Measurement> measurements) {
        String target = "mutual exclusion: counter exact, never two holders (every contender)";
        if (measurements.isEmpty()) {
            return new TargetStatus(target, "—", Verdict.NOT_MEASURED);
        }
        long violated = measurements.stream().filter(m -> !m.exclusionHeld()).count();
        return new TargetStatus(target, violated == 0 ? "held in all " + measurements.size() + " measurements"
                : violated + " measurements violated it", Verdict.of(violated == 0));
    }
}
