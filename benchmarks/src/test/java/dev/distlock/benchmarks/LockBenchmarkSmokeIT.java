package dev.distlock.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.benchmarks.async.AsyncResult;
import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.cost.CostResult;
import dev.distlock.benchmarks.jmh.JmhResult;
import dev.distlock.benchmarks.readwrite.ReadWriteComparison;
import dev.distlock.benchmarks.readwrite.ReadWriteResult;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.report.MarkdownReport;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.Scenario;
import dev.distlock.benchmarks.topologies.Topology;
import java.util.List;
import java.util.stream.Stream;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The whole harness in a few seconds of measurement: every contender in every scenario, the round-trip count,
 * a small memory check, non-blocking callers, the Java-side cost check, a thousand renewed holds, JMH in-process and distlock on every topology. It proves the harness works and that every contender kept mutual
 * exclusion (a read-write lock's writers too); it asserts nothing about speed.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class LockBenchmarkSmokeIT {

    @Test
    void everyContenderRunsEveryScenarioKeepsMutualExclusionAndTheReportSaysSo() throws Exception {
        BenchmarkOptions options = BenchmarkOptions.parse("--seconds", "0.3", "--warmup", "0.1", "--no-warmup-pass",
                "--rounds", "1", "--roundtrip-ops", "20", "--memory-names", "20000", "--async-waiters", "400", "--cost-ops", "2000",
                "--renewal-holds", "1000", "--jmh-quick");

        BenchmarkResults results = new BenchmarkRun(options, System.out).run();

        assertThat(results.measurements()).hasSize(Scenario.values().length * Contenders.NAMES.size());
        assertThat(results.topologyMeasurements()).hasSize(Scenario.values().length * Topology.NAMES.size());
        for (Measurement m : concat(results.measurements(), results.topologyMeasurements())) {
            String what = m.contender() + " in scenario " + m.scenario().number();
            assertThat(m.exclusionHeld()).as(what + " kept mutual exclusion").isTrue();
            assertThat(m.errors()).as(what + " threw nothing; first: " + m.firstError()).isZero();
            assertThat(m.counterTotal()).as(what + " counted every entry").isEqualTo(m.entries());
        }
        for (Measurement m : results.measurements()) {
            assertThat(m.entries()).as(m.contender() + " in scenario " + m.scenario().number() + " acquired the lock")
                    .isPositive();
        }
        // Redlock's waiters poll (every 500 ms by default), so a contended 0.3 s window can pass between two polls
        // with no entry (seen with the engine before the non-blocking core too): each topology must acquire in the
        // run, not in every window
        for (String topology : Topology.NAMES) {
            assertThat(results.topologyMeasurements()).filteredOn(m -> m.contender().equals(topology))
                    .as(topology + " acquired the lock").anySatisfy(m -> assertThat(m.entries()).isPositive());
        }
        assertThat(results.roundTrips()).extracting(RoundTrips::contender).containsExactlyElementsOf(Contenders.NAMES);
        assertThat(results.roundTrips()).allSatisfy(c -> assertThat(c.roundTripsPerOp()).isPositive());
        assertThat(results.memory()).hasSize(2);
        assertThat(results.topologyMeasurements())
                .filteredOn(m -> m.contender().equals("cluster") && m.scenario() == Scenario.HAND_OFF)
                .as("hand-off notices on the cluster travel over the cluster bus")
                .allSatisfy(m -> assertThat(m.redis().busPublishes()).isPositive());
        assertThat(results.async()).isNotEmpty().allSatisfy(r -> assertThat(r.calls()).isPositive());
        assertThat(results.async()).filteredOn(r -> r.inArrivalOrder() != null).extracting(AsyncResult::kind)
                .containsExactly(AsyncResult.Kind.ONE_NAME, AsyncResult.Kind.ONE_NAME_ANNOTATED);
        assertThat(results.async()).filteredOn(r -> r.inArrivalOrder() != null)
                .allSatisfy(r -> assertThat(r.inArrivalOrder()).as(r.what() + ": served in arrival order").isTrue());
        assertThat(results.cost()).hasSize(BenchmarkOptions.COST_CASES.size())
                .allSatisfy(r -> assertThat(r.median(CostResult.Run::callerBytes)).isPositive());
        assertThat(results.renewals()).singleElement().satisfies(r -> {
            assertThat(r.allHeld()).as("every renewed hold still held after the measured periods").isTrue();
            assertThat(r.scriptsPerPeriod()).as("the watchdog renewed").isPositive();
        });
        assertThat(results.readWrite()).extracting(ReadWriteResult::contender)
                .containsExactlyElementsOf(ReadWriteComparison.CONTENDERS);
        assertThat(results.readWrite()).allSatisfy(r -> {
            assertThat(r.exclusionHeld()).as(r.contender() + ": no writer beside another holder").isTrue();
            assertThat(r.median()).as(r.contender() + " read and wrote").isPositive();
        });
        assertThat(results.readers()).singleElement().satisfies(r -> {
            assertThat(r.mostExclusive()).as("never two holders of the exclusive lock").isLessThanOrEqualTo(1);
            assertThat(r.medianReads()).as("readers read").isPositive();
        });
        assertThat(results.jmh()).extracting(JmhResult::benchmark)
                .containsExactlyInAnyOrder("annotated", "direct", "keyEvaluation");

        String report = MarkdownReport.render(results);
        for (Scenario scenario : Scenario.values()) {
            assertThat(report).contains("### Scenario " + scenario.number() + ":");
        }
        assertThat(report).contains("### Targets (distlock)", "### Round trips", "### Annotation layer",
                "### Memory", "### Non-blocking callers", "### Java-side cost", "held in all " + Scenario.values().length * Contenders.NAMES.size() + " measurements", "### Watchdog renewals",
                "### Read-write locks", "### Topologies");
    }

    private static List<Measurement> concat(List<Measurement> first, List<Measurement> second) {
        return Stream.concat(first.stream(), second.stream()).toList();
    }
}
