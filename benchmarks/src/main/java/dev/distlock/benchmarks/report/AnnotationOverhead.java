package dev.distlock.benchmarks.report;

import dev.distlock.benchmarks.jmh.JmhResult;
import java.util.List;
import java.util.Optional;

/** The time {@code @DistributedLock} adds to a call: the annotated benchmark minus the direct one. */
final class AnnotationOverhead {

    private AnnotationOverhead() {
    }

    /** Nanoseconds per call, if both benchmarks ran. */
    static Optional<Double> nanos(List<JmhResult> jmh) {
        Optional<JmhResult> annotated = find(jmh, "annotated");
        Optional<JmhResult> direct = find(jmh, "direct");
        if (annotated.isEmpty() || direct.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(annotated.get().nanosPerOp() - direct.get().nanosPerOp());
    }

    private static Optional<JmhResult> find(List<JmhResult> jmh, String benchmark) {
        return jmh.stream().filter(r -> r.benchmark().equals(benchmark)).findFirst();
    }
}
