package dev.distlock.benchmarks.charts;

import dev.distlock.benchmarks.results.RunResults;
import dev.distlock.benchmarks.results.RunResults.ContenderResult;
import dev.distlock.benchmarks.results.RunResults.ScenarioResult;
import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.jfree.chart.ChartFactory;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;

/**
 * The charts of a run, drawn from its results file alone: throughput as a ratio to the floor, Redis commands per
 * lock, and acquire-wait percentiles per scenario.
 */
public final class BenchmarkCharts {

    /** The percentiles of the latency charts, with the field of a row that holds each. */
    static final List<Percentile> PERCENTILES = List.of(new Percentile("p50", ContenderResult::p50Millis),
            new Percentile("p99", ContenderResult::p99Millis), new Percentile("p99.9", ContenderResult::p999Millis));

    record Percentile(String name, ToDoubleFunction<ContenderResult> millis) {
    }

    private final RunResults results;

    /** Charts of {@code results}. */
    public BenchmarkCharts(RunResults results) {
        this.results = results;
    }

    /**
     * Each scenario's ops/s divided by the floor's of the same round (mean over the rounds), one bar per contender but
     * the floor, which is the line at 1.
     */
    public JFreeChart throughput() {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (ScenarioResult scenario : results.scenarios()) {
            for (ContenderResult row : scenario.rows()) {
                if (!row.contender().equals(scenario.baseline()) && row.ratio() != null) {
                    data.addValue(row.ratio(), row.contender(), category(scenario));
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart("Throughput as a ratio to the floor (higher is better)", null,
                "ops/s ÷ floor's ops/s, same round", data, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.apply(chart, subtitle("1.0 = the floor: the same lock as raw Redis commands on Lettuce", true), "0.00");
        colourByContender(chart, data);
        ValueMarker floor = new ValueMarker(1.0, ChartStyle.MARKER, new BasicStroke(1.5f, BasicStroke.CAP_BUTT,
                BasicStroke.JOIN_MITER, 10f, new float[] {6f, 4f}, 0f));
        floor.setLabel("floor");
        floor.setLabelFont(ChartStyle.LABEL);
        floor.setLabelBackgroundColor(new Color(255, 255, 255, 0));
        floor.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
        floor.setLabelTextAnchor(TextAnchor.BOTTOM_RIGHT);
        chart.getCategoryPlot().addRangeMarker(floor);
        // the axis reaches past the floor's line even where every contender stays below it
        double highest = 1;
        for (int row = 0; row < data.getRowCount(); row++) {
            for (int column = 0; column < data.getColumnCount(); column++) {
                Number value = data.getValue(row, column);
                highest = value == null ? highest : Math.max(highest, value.doubleValue());
            }
        }
        chart.getCategoryPlot().getRangeAxis().setRange(0, highest * 1.1);
        return chart;
    }

    /** Redis commands per lock+unlock, script internals included, one bar per contender, the floor's too. */
    public JFreeChart commands() {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (ScenarioResult scenario : results.scenarios()) {
            for (ContenderResult row : scenario.rows()) {
                data.addValue(row.redisCommandsPerLock(), row.contender(), category(scenario));
            }
        }
        JFreeChart chart = ChartFactory.createBarChart("Redis commands per lock+unlock (lower is cheaper)", null,
                "commands, script internals included", data, PlotOrientation.VERTICAL, true, false, false);
        ChartStyle.apply(chart, subtitle("INFO commandstats deltas over the timed runs", false), "0.#");
        colourByContender(chart, data);
        return chart;
    }

    /**
     * The acquire-wait percentiles of one scenario, one group of bars per contender, on a logarithmic scale (the
     * waits of one scenario span several powers of ten).
     *
     * @throws IllegalArgumentException if the results have no such scenario
     */
    public JFreeChart latency(int scenarioNumber) {
        ScenarioResult scenario = results.scenarios().stream().filter(s -> s.number() == scenarioNumber).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario " + scenarioNumber + " in the results"));
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        double least = Double.MAX_VALUE;
        double most = 0;
        for (ContenderResult row : scenario.rows()) {
            for (Percentile percentile : PERCENTILES) {
                double millis = percentile.millis().applyAsDouble(row);
                data.addValue(millis, percentile.name(), row.contender());
                if (millis > 0) {
                    least = Math.min(least, millis);
                    most = Math.max(most, millis);
                }
            }
        }
        JFreeChart chart = ChartFactory.createBarChart("Scenario " + scenario.number() + ": " + scenario.title(),
                null, "acquire wait, ms (log scale)", data, PlotOrientation.VERTICAL, true, false, false);
        chart.getTitle().setFont(ChartStyle.TITLE.deriveFont(Font.BOLD, 14f));
        ChartStyle.apply(chart, subtitle("acquire-wait percentiles, lower is better", false), "0.##");
        CategoryPlot plot = chart.getCategoryPlot();
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        for (int i = 0; i < PERCENTILES.size(); i++) {
            bars.setSeriesPaint(i, ChartStyle.PERCENTILES.get(i));
        }
        // bars grow from the axis' lower end: a log axis has no zero
        bars.setIncludeBaseInRange(false);
        LogAxis axis = new LogAxis("acquire wait, ms (log scale)");
        axis.setBase(10);
        axis.setTickUnit(new NumberTickUnit(1)); // in powers of ten: a tick at each of them
        axis.setNumberFormatOverride(new DecimalFormat("0.###"));
        axis.setTickLabelFont(ChartStyle.LABEL);
        axis.setLabelFont(ChartStyle.LABEL);
        double lower = least == Double.MAX_VALUE ? 0.01 : Math.pow(10, Math.floor(Math.log10(least)));
        double upper = most == 0 ? 1 : Math.pow(10, Math.ceil(Math.log10(most * 1.5)));
        axis.setRange(lower * 0.98, upper * 1.02); // a hair wider, so the end ticks are drawn
        plot.setRangeAxis(axis);
        return chart;
    }

    /** The numbers of the scenarios in the results, in run order. */
    public List<Integer> scenarioNumbers() {
        return results.scenarios().stream().map(ScenarioResult::number).toList();
    }

    private void colourByContender(JFreeChart chart, DefaultCategoryDataset data) {
        BarRenderer bars = (BarRenderer) chart.getCategoryPlot().getRenderer();
        for (int i = 0; i < data.getRowCount(); i++) {
            bars.setSeriesPaint(i, ChartStyle.contender(String.valueOf(data.getRowKey(i)), i));
        }
    }

    /** The run's date and rounds, then {@code what}; {@code mean}: the figures are means of the rounds' figures. */
    private String subtitle(String what, boolean mean) {
        RunResults.Settings settings = results.settings();
        String rounds = settings == null ? ""
                : settings.rounds() == 1 ? ", 1 round"
                : mean ? ", mean of " + settings.rounds() + " rounds" : ", " + settings.rounds() + " rounds together";
        return "Run of " + results.date() + rounds + "; " + what;
    }

    private static String category(ScenarioResult scenario) {
        return scenario.number() + ": " + scenario.label();
    }
}
