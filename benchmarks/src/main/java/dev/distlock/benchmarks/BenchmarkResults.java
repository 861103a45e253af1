package dev.distlock.benchmarks;

import dev.distlock.benchmarks.async.AsyncResult;
import dev.distlock.benchmarks.cost.CostResult;
import dev.distlock.benchmarks.jmh.JmhResult;
import dev.distlock.benchmarks.memory.MemoryResult;
import dev.distlock.benchmarks.redis.CommandPaths;
import dev.distlock.benchmarks.redis.RoundTrips;
import dev.distlock.benchmarks.permits.PermitsResult;
import dev.distlock.benchmarks.readwrite.ReadWriteResult;
import dev.distlock.benchmarks.readwrite.ReadersResult;
import dev.distlock.benchmarks.renewals.RenewalResult;
import dev.distlock.benchmarks.report.MachineInfo;
import dev.distlock.benchmarks.scenarios.Measurement;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;

/**
 * Everything a run measured, for the report and for tests.
 *
 * @param options what was asked for
 * @param date when
 * @param machine where
 * @param contenders each contender's name and description, in run order
 * @param measurements the scenario measurements, in the order they ran
 * @param roundTrips the MONITOR counts per contender
 * @param paths the commands of each path of distlock's protocol, as MONITOR showed them
 * @param memory the memory checks
 * @param jmh the annotation benchmarks
 * @param async the non-blocking callers
 * @param cost the Java-side cost of one uncontended lock+unlock, per case
 * @param renewals the watchdog's renewals of many holds at once
 * @param permits the permits comparison, per contender
 * @param readWrite the read-mostly load on a read-write lock, per contender
 * @param readers distlock's readers of one name against its exclusive lock (one result, or none)
 * @param topologies each topology's name and description, in run order
 * @param topologyMeasurements distlock's scenario measurements on those topologies, in the order they ran
 * @param loadAtEnd the load averages when the run ended
 */
public record BenchmarkResults(BenchmarkOptions options, LocalDate date, MachineInfo machine,
        Map<String, String> contenders, List<Measurement> measurements, List<RoundTrips> roundTrips,
        List<CommandPaths.CommandPath> paths, List<MemoryResult> memory, List<JmhResult> jmh, List<AsyncResult> async,
        List<CostResult> cost, List<RenewalResult> renewals, List<PermitsResult> permits,
        List<ReadWriteResult> readWrite, List<ReadersResult> readers, Map<String, String> topologies,
        List<Measurement> topologyMeasurements, String loadAtEnd) {
}
