package dev.distlock.benchmarks.charts;

import dev.distlock.benchmarks.results.ResultsFile;
import dev.distlock.benchmarks.results.RunResults;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Renders the charts of a results file, without running anything:
 * {@code RenderCharts RESULTS.json DIRECTORY} (by default {@code docs/benchmarks/results.json} into
 * {@code docs/benchmarks}, relative to where it runs).
 */
public final class RenderCharts {

    private RenderCharts() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length > 2) {
            System.err.println("usage: RenderCharts [RESULTS.json [DIRECTORY]]");
            System.exit(2);
        }
        Path file = Path.of(args.length > 0 ? args[0] : "docs/benchmarks/results.json");
        Path directory = args.length > 1 ? Path.of(args[1]) : file.toAbsolutePath().getParent();
        RunResults results = ResultsFile.read(file);
        for (Path written : ChartFiles.write(results, directory)) {
            System.out.println("wrote " + written);
        }
    }
}
