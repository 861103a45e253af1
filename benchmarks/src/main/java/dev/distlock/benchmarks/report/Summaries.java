package dev.distlock.benchmarks.report;

import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.scenarios.Measurement;
import dev.distlock.benchmarks.scenarios.Scenario;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** Groups measurements by scenario and contender and takes every ratio against a baseline of the same round. */
public final class Summaries {

    private final Map<Scenario, List<ScenarioSummary>> byScenario;

    private Summaries(Map<Scenario, List<ScenarioSummary>> byScenario) {
        this.byScenario = byScenario;
    }

    /** Summarises {@code measurements} with ratios to the floor, keeping the order in which they ran. */
    public static Summaries of(List<Measurement> measurements) {
        return of(measurements, Contenders.FLOOR);
    }

    /** Summarises {@code measurements} with ratios to the contender called {@code baseline}. */
    public static Summaries of(List<Measurement> measurements, String baseline) {
        Map<Scenario, Map<String, List<Measurement>>> grouped = new LinkedHashMap<>();
        for (Measurement m : measurements) {
            grouped.computeIfAbsent(m.scenario(), s -> new LinkedHashMap<>())
                    .computeIfAbsent(m.contender(), c -> new ArrayList<>()).add(m);
        }
        Map<Scenario, List<ScenarioSummary>> summaries = new LinkedHashMap<>();
        grouped.forEach((scenario, byContender) -> {
            List<Measurement> base = byContender.getOrDefault(baseline, List.of());
            List<ScenarioSummary> rows = new ArrayList<>();
            byContender.forEach((contender, rounds) -> rows.add(
                    new ScenarioSummary(scenario, contender, rounds, ratios(rounds, base))));
            summaries.put(scenario, rows);
        });
        return new Summaries(summaries);
    }

    /** The scenarios measured, in order. */
    public Map<Scenario, List<ScenarioSummary>> byScenario() {
        return byScenario;
    }

    /** One contender's summary of one scenario, if measured. */
    public Optional<ScenarioSummary> find(Scenario scenario, String contender) {
        return byScenario.getOrDefault(scenario, List.of()).stream()
                .filter(summary -> summary.contender().equals(contender)).findFirst();
    }

    private static List<Double> ratios(List<Measurement> rounds, List<Measurement> base) {
        List<Double> ratios = new ArrayList<>();
        for (Measurement m : rounds) {
            base.stream().filter(f -> f.round() == m.round() && f.opsPerSecond() > 0).findFirst()
                    .ifPresent(f -> ratios.add(m.opsPerSecond() / f.opsPerSecond()));
        }
        return ratios;
    }
}
