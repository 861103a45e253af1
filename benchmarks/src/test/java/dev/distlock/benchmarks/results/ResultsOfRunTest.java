package dev.distlock.benchmarks.results;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.distlock.benchmarks.BenchmarkOptions;
import dev.distlock.benchmarks.BenchmarkResults;
import dev.distlock.benchmarks.redis.RedisCounters;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.report.MachineInfo;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.Scenario;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

/** A run's measurements become the results file's figures: ratios to the floor per round, percentiles, counts. */
class ResultsOfRunTest {

    @Test
    void summarisesEachScenarioOverItsRoundsWithRatiosToTheFloorOfTheSameRound() {
        List<Measurement> measurements = List.of(
                measurement("distlock", 1, 900, 0.2, 7),
                measurement("floor", 1, 1000, 0.1, 4),
                measurement("distlock", 2, 1200, 0.2, 7),
                measurement("floor", 2, 1000, 0.1, 4));
        BenchmarkOptions options = BenchmarkOptions.parse("--rounds", "2", "--seconds", "1");
        BenchmarkResults run = new BenchmarkResults(options, LocalDate.of(2026, 11, 26),
                new MachineInfo(2, "test CPU", 23.5, "Linux 6", "OpenJDK 17", "redis-server 7.0.15", "0.1 0.2 0.3"),
                Map.of("distlock", "d", "floor", "f"), measurements,
                List.of(new RoundTrips("distlock", 10, Map.of("fcall", 20L), Map.of("set", 30L, "get", 10L,
                        "time", 10L))),
                List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(), List.of(),
                Map.of(), List.of(), "1.0 1.0 1.0");

        RunResults results = ResultsOfRun.of(run);

        assertThat(results.source()).isEqualTo(RunResults.MEASURED);
        assertThat(results.date()).isEqualTo("2026-11-26");
        assertThat(results.versions()).containsEntry("Redis", "7.0.15").containsKeys("distlock", "Redisson",
                "Spring Integration", "Lettuce");
        assertThat(results.settings().rounds()).isEqualTo(2);
        assertThat(results.scenarios()).singleElement().satisfies(scenario -> {
            assertThat(scenario.number()).isEqualTo(1);
            assertThat(scenario.baseline()).isEqualTo("floor");
            RunResults.ContenderResult distlock = scenario.rows().get(0);
            assertThat(distlock.contender()).isEqualTo("distlock");
            assertThat(distlock.opsPerSecond()).isCloseTo(1050, within(1e-9));
            assertThat(distlock.ratio()).isCloseTo(1.05, within(1e-9));
            assertThat(distlock.ratioMin()).isCloseTo(0.9, within(1e-9));
            assertThat(distlock.ratioMax()).isCloseTo(1.2, within(1e-9));
            assertThat(distlock.p50Millis()).isCloseTo(0.2, within(0.001));
            assertThat(distlock.redisCommandsPerLock()).isCloseTo(7, within(1e-9));
            assertThat(scenario.rows().get(1).ratio()).isEqualTo(1.0);
        });
        assertThat(results.roundTrips()).singleElement().satisfies(r -> {
            assertThat(r.roundTrips()).isEqualTo(2.0);
            assertThat(r.commands()).isEqualTo(7.0);
        });
    }

    /** One second of one thread: {@code ops} acquisitions, each waiting {@code waitMillis}, {@code commands} each. */
    private static Measurement measurement(String contender, int round, long ops, double waitMillis, long commands) {
        Histogram waits = new Histogram(3);
        waits.recordValueWithCount((long) (waitMillis * TimeUnit.MILLISECONDS.toNanos(1)), ops);
        return new Measurement(contender, Scenario.UNCONTENDED, round, Scenario.UNCONTENDED.workload(8), 1.0,
                new long[] {ops}, ops, ops, 0, 0, 0, null, waits, 0,
                new RedisCounters(Map.of("set", commands * ops), 0.01, 0), 0);
    }
}
