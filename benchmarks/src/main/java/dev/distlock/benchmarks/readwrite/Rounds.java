package dev.distlock.benchmarks.readwrite;

import java.util.List;

/** The figures of a measurement repeated over rounds: the report shows the median with the range. */
final class Rounds {

    private Rounds() {
    }

    static double median(List<Double> rounds) {
        double[] sorted = rounds.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    static double min(List<Double> rounds) {
        return rounds.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> rounds) {
        return rounds.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
