package dev.distlock.benchmarks;

import dev.distlock.benchmarks.report.MarkdownReport;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the lock benchmarks from the command line and writes the Markdown report; see
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
        System.exit(0); // client libraries may leave non-daemon threads behind
    }
}
