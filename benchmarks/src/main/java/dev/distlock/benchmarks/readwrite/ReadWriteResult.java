package dev.distlock.benchmarks.readwrite;

import java.util.List;
import java.util.stream.IntStream;

/**
 * One contender's read-mostly load on one read-write lock in the read-write comparison.
 *
 * @param contender the contender's name
 * @param description what runs
 * @param readsPerSecond reads (acquire the read side, hold, release) per second in each round
 * @param writesPerSecond writes per second in each round
 * @param writerOverlaps holds that found a writer beside another holder, over every round: 0 for a correct lock
 * @param mostReaders the most readers ever inside at once, over every round
 * @param mostWriters the most writers ever inside at once, over every round: at most 1 for a correct lock
 * @param failures acquisitions that did not succeed within their wait, or failed, and releases that failed
 * @param firstFailure what the first failure said, or {@code null} without one
 */
public record ReadWriteResult(String contender, String description, List<Double> readsPerSecond,
        List<Double> writesPerSecond, long writerOverlaps, int mostReaders, int mostWriters, long failures,
        String firstFailure) {

    /** The budget: distlock's operations per second at least this many times Redisson's. */
    public static final double MIN_RATIO_TO_REDISSON = 1.3;

    /** Reads and writes per second in each round. */
    public List<Double> perSecond() {
        return IntStream.range(0, readsPerSecond.size())
                .mapToObj(i -> readsPerSecond.get(i) + writesPerSecond.get(i)).toList();
    }

    /** The median of the rounds' reads and writes per second. */
    public double median() {
        return Rounds.median(perSecond());
    }

    public double min() {
        return Rounds.min(perSecond());
    }

    public double max() {
        return Rounds.max(perSecond());
    }

    public double medianReads() {
        return Rounds.median(readsPerSecond);
    }

    public double medianWrites() {
        return Rounds.median(writesPerSecond);
    }

    /** Whether no writer ever shared the lock: no overlap seen and never two writers inside. */
    public boolean exclusionHeld() {
        return writerOverlaps == 0 && mostWriters <= 1;
    }
}
