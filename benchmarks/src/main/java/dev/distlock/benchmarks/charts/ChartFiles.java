package dev.distlock.benchmarks.charts;

import dev.distlock.benchmarks.results.RunResults;
import java.awt.Rectangle;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jfree.chart.JFreeChart;
import org.jfree.svg.SVGGraphics2D;

/** Writes a run's charts as SVG files into one directory. */
public final class ChartFiles {

    /** The throughput chart's file name. */
    public static final String THROUGHPUT = "throughput.svg";
    /** The commands chart's file name. */
    public static final String COMMANDS = "commands.svg";
    private static final int WIDE = 960;
    private static final int WIDE_HEIGHT = 480;
    private static final int LATENCY_WIDTH = 720;
    private static final int LATENCY_HEIGHT = 400;

    private ChartFiles() {
    }

    /** The latency chart's file name for scenario {@code number}. */
    public static String latency(int number) {
        return "latency-scenario-" + number + ".svg";
    }

    /**
     * Writes every chart of {@code results} into {@code directory}, creating it; nothing without scenarios.
     *
     * @return the files written
     */
    public static List<Path> write(RunResults results, Path directory) throws IOException {
        if (results.scenarios().isEmpty()) {
            return List.of();
        }
        Files.createDirectories(directory);
        BenchmarkCharts charts = new BenchmarkCharts(results);
        List<Path> written = new ArrayList<>();
        written.add(write(charts.throughput(), WIDE, WIDE_HEIGHT, directory.resolve(THROUGHPUT)));
        written.add(write(charts.commands(), WIDE, WIDE_HEIGHT, directory.resolve(COMMANDS)));
        for (int number : charts.scenarioNumbers()) {
            written.add(write(charts.latency(number), LATENCY_WIDTH, LATENCY_HEIGHT,
                    directory.resolve(latency(number))));
        }
        return written;
    }

    /**
     * The chart as an SVG document; each bar in a group that names its series and category. Its definitions' ids start
     * with {@code idPrefix}: fixed, so that rendering the same results again gives the same file, and distinct per
     * chart, so that several charts can be inlined in one page.
     */
    static String svg(JFreeChart chart, int width, int height, String idPrefix) {
        SVGGraphics2D g2 = new SVGGraphics2D(width, height);
        g2.setDefsKeyPrefix(idPrefix);
        chart.setElementHinting(true);
        chart.draw(g2, new Rectangle(0, 0, width, height));
        return g2.getSVGDocument();
    }

    private static Path write(JFreeChart chart, int width, int height, Path file) throws IOException {
        String name = file.getFileName().toString();
        String idPrefix = name.substring(0, name.length() - ".svg".length()) + "-";
        Files.writeString(file, svg(chart, width, height, idPrefix) + "\n", StandardCharsets.UTF_8);
        return file;
    }
}
