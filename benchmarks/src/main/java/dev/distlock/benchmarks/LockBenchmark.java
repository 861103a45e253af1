package dev.distlock.benchmarks;

import dev.distlock.benchmarks.charts.ChartFiles;
import dev.distlock.benchmarks.report.MarkdownReport;
import dev.distlock.benchmarks.results.ResultsFile;
import dev.distlock.benchmarks.results.ResultsOfRun;
import dev.distlock.benchmarks.results.RunResults;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the lock benchmarks from the command line and writes the Markdown report, the results file and the charts
 * drawn from it; see
 * {@code benchmarks/README.md} for the command and {@link BenchmarkOptions} for the options.
 */
public final class LockBenchmark {

    private LockBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        BenchmarkOptions options;
        try {
            options = BenchmarkOptions.parse(args);
        } catch (IllegalArgumentException ex) {
            System.err.println(ex.getMessage());
            System.exit(2);
            return;
        }
        BenchmarkResults results = new BenchmarkRun(options, System.out).run();
        String report = MarkdownReport.render(results);
        Path file = options.report().toAbsolutePath();
        Files.createDirectories(file.getParent());
        Files.writeString(file, report, StandardCharsets.UTF_8);
        System.out.println();
        System.out.println(report);
        System.out.println("Report written to " + file);
        RunResults figures = ResultsOfRun.of(results);
        ResultsFile.write(figures, options.results());
        System.out.println("Results written to " + options.results().toAbsolutePath());
        for (Path chart : ChartFiles.write(figures, options.charts())) {
            System.out.println("Chart written to " + chart.toAbsolutePath());
        }
        System.exit(0); // client libraries may leave non-daemon threads behind
    }
}
