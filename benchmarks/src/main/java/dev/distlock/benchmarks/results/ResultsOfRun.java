package dev.distlock.benchmarks.results;

import dev.distlock.benchmarks.BenchmarkOptions;
import dev.distlock.benchmarks.BenchmarkResults;
import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.contenders.LibraryVersion;
import dev.distlock.benchmarks.cost.CostResult;
import dev.distlock.benchmarks.report.MachineInfo;
import dev.distlock.benchmarks.report.ScenarioSummary;
import dev.distlock.benchmarks.report.Summaries;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.topologies.Topology;
import io.lettuce.core.RedisClient;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.redisson.Redisson;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.integration.redis.util.RedisLockRegistry;

/** Turns a run's {@link BenchmarkResults} into the figures of its results file. */
public final class ResultsOfRun {

    private ResultsOfRun() {
    }

    /** The figures of {@code results}, summarised over the rounds as the Markdown report does. */
    public static RunResults of(BenchmarkResults results) {
        BenchmarkOptions options = results.options();
        MachineInfo machine = results.machine();
        return new RunResults(RunResults.FORMAT, RunResults.MEASURED, results.date().toString(),
                new RunResults.Machine(machine.cores(), machine.cpu(), machine.memoryGib(), machine.os(),
                        machine.java(), machine.loadAtStart(), results.loadAtEnd()),
                versions(machine),
                new RunResults.Settings(options.measurement().toMillis() / 1000.0, options.warmup().toMillis() / 1000.0,
                        options.warmupPass(), options.rounds(), options.threads()),
                results.contenders(),
                scenarios(results.measurements(), Contenders.FLOOR),
                results.roundTrips().stream()
                        .map(r -> new RunResults.RoundTripResult(r.contender(), r.roundTripsPerOp(), r.commandsPerOp()))
                        .toList(),
                results.cost().stream()
                        .map(c -> new RunResults.CostFigure(c.what(), c.median(CostResult.Run::wallNanos),
                                c.median(CostResult.Run::jvmCpuNanos), c.median(CostResult.Run::callerBytes),
                                c.median(CostResult.Run::jvmBytes)))
                        .toList(),
                results.topologies(),
                scenarios(results.topologyMeasurements(), Topology.BASELINE));
    }

    private static Map<String, String> versions(MachineInfo machine) {
        Map<String, String> versions = new LinkedHashMap<>();
        versions.put("distlock", LibraryVersion.distlock());
        versions.put("Redisson", LibraryVersion.of(Redisson.class));
        versions.put("Spring Integration", LibraryVersion.of(RedisLockRegistry.class));
        versions.put("Spring Data Redis", LibraryVersion.of(LettuceConnectionFactory.class));
        versions.put("Lettuce", LibraryVersion.of(RedisClient.class));
        versions.put("Redis", machine.redis().replaceFirst("^redis-server ", ""));
        return versions;
    }

    private static List<RunResults.ScenarioResult> scenarios(List<Measurement> measurements, String baseline) {
        List<RunResults.ScenarioResult> scenarios = new ArrayList<>();
        Summaries.of(measurements, baseline).byScenario().forEach((scenario, rows) -> {
            int threads = rows.get(0).rounds().get(0).workload().threads();
            scenarios.add(new RunResults.ScenarioResult(scenario.number(), scenario.title(threads),
                    scenario.label(threads), baseline, rows.stream().map(ResultsOfRun::row).toList()));
        });
        return scenarios;
    }

    private static RunResults.ContenderResult row(ScenarioSummary row) {
        boolean baseline = !row.ratios().isEmpty();
        return new RunResults.ContenderResult(row.contender(), row.opsPerSecond(),
                baseline ? row.ratio() : null, baseline ? row.ratioMin() : null, baseline ? row.ratioMax() : null,
                row.waitMillis(50), row.waitMillis(99), row.waitMillis(99.9), row.waitMillis(100), row.fairness(),
                row.commandsPerOp(), row.redisCpuMicrosPerOp(), row.exclusionHeld());
    }
}
