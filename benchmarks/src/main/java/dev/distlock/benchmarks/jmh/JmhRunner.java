package dev.distlock.benchmarks.jmh;

import java.util.Collection;
import java.util.List;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.runner.options.VerboseMode;

/** Runs {@link AnnotationOverheadBenchmark} through JMH's API and returns its scores. */
public final class JmhRunner {

    private final Settings settings;

    public JmhRunner(Settings settings) {
        this.settings = settings;
    }

    /** Runs the benchmarks; JMH prints its progress on standard output. */
    public List<JmhResult> run() throws RunnerException {
        ForkClassPath.useLoaderOf(AnnotationOverheadBenchmark.class);
        Options options = new OptionsBuilder()
                .include(AnnotationOverheadBenchmark.class.getName() + "\\.")
                .forks(settings.forks())
                .warmupIterations(settings.warmupIterations())
                .warmupTime(TimeValue.milliseconds(settings.iterationMillis()))
                .measurementIterations(settings.iterations())
                .measurementTime(TimeValue.milliseconds(settings.iterationMillis()))
                .jvmArgs("-Xmx512m") // not the launching JVM's arguments, which may be Maven's
                .shouldFailOnError(true)
                .verbosity(settings.forks() == 0 ? VerboseMode.SILENT : VerboseMode.NORMAL)
                .build();
        Collection<RunResult> results = new Runner(options).run();
        return results.stream().map(JmhRunner::toResult).toList();
    }

    private static JmhResult toResult(RunResult run) {
        Result<?> primary = run.getPrimaryResult();
        String benchmark = run.getParams().getBenchmark();
        return new JmhResult(benchmark.substring(benchmark.lastIndexOf('.') + 1), primary.getScore(),
                primary.getScoreError());
    }

    /**
     * How long JMH runs.
     *
     * @param forks JVMs per benchmark; 0 runs in this JVM (quick checks only: JMH warns that it is unreliable)
     * @param warmupIterations untimed iterations
     * @param iterations timed iterations
     * @param iterationMillis length of each
     */
    public record Settings(int forks, int warmupIterations, int iterations, long iterationMillis) {

        /** One fork, 3 x 1 s warm-up, 5 x 1 s measured: about half a minute per benchmark. */
        public static Settings standard() {
            return new Settings(1, 3, 5, 1000);
        }

        /** In this JVM, a few hundred milliseconds per benchmark: proves the benchmarks run, measures nothing. */
        public static Settings quick() {
            return new Settings(0, 1, 1, 200);
        }
    }
}
