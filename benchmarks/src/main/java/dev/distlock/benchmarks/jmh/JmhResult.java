package dev.distlock.benchmarks.jmh;

/**
 * One JMH benchmark's score.
 *
 * @param benchmark the method name, e.g. {@code annotated}
 * @param nanosPerOp mean time per call
 * @param error the 99.9% confidence half-width, or NaN when too few iterations ran to compute it
 */
public record JmhResult(String benchmark, double nanosPerOp, double error) {
}
