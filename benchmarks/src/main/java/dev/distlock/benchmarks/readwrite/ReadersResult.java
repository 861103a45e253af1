package dev.distlock.benchmarks.readwrite;

import java.util.List;

/**
 * distlock's readers of one name against its exclusive lock on one name, the same clients and holds: how far readers
 * let each other in rather than queue one behind another.
 *
 * @param readsPerSecond read holds (acquire, hold, release) per second in each round
 * @param exclusivePerSecond exclusive holds per second in each round
 * @param mostReaders the most readers ever inside at once, over every round
 * @param mostExclusive the most exclusive holders ever inside at once: at most 1 for a correct lock
 * @param failures acquisitions that did not succeed within their wait, or failed, and releases that failed
 * @param firstFailure what the first failure said, or {@code null} without one
 */
public record ReadersResult(List<Double> readsPerSecond, List<Double> exclusivePerSecond, int mostReaders,
        int mostExclusive, long failures, String firstFailure) {

    /** The budget: readers at least this many times the exclusive lock's holds per second. */
    public static final double MIN_RATIO_TO_EXCLUSIVE = 4;

    public double medianReads() {
        return Rounds.median(readsPerSecond);
    }

    public double minReads() {
        return Rounds.min(readsPerSecond);
    }

    public double maxReads() {
        return Rounds.max(readsPerSecond);
    }

    public double medianExclusive() {
        return Rounds.median(exclusivePerSecond);
    }

    public double minExclusive() {
        return Rounds.min(exclusivePerSecond);
    }

    public double maxExclusive() {
        return Rounds.max(exclusivePerSecond);
    }

    /** The readers' median over the exclusive lock's. */
    public double ratio() {
        return medianReads() / medianExclusive();
    }
}
