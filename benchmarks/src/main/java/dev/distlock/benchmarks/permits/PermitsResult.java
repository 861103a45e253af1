package dev.distlock.benchmarks.permits;

import java.util.List;

/**
 * One contender's takings of a semaphore's permits in the permits comparison.
 *
 * @param contender the contender's name
 * @param description what runs
 * @param perSecond takings (take, hold, give back) per second in each round
 * @param mostInside the most clients ever inside at once, over every round (never above the permits)
 * @param failures takings that found no permit within their wait, or failed
 */
public record PermitsResult(String contender, String description, List<Double> perSecond, int mostInside,
        long failures) {

    /** The budget: distlock's takings per second at least this many times Redisson's. */
    public static final double MIN_RATIO_TO_REDISSON = 1.3;

    /** The median of the rounds. */
    public double median() {
        double[] sorted = perSecond.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length / 2];
    }

    public double min() {
        return perSecond.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    public double max() {
        return perSecond.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }
}
