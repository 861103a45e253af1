package dev.distlock.benchmarks.charts;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.text.DecimalFormat;
import java.util.List;
import java.util.Map;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleInsets;

/** One look for every chart: flat bars, white plot, each contender in the same colour on every chart. */
final class ChartStyle {

    /** Contenders' colours; distlock stands out, Spring Integration's two kinds share a hue, the floor is grey. */
    private static final Map<String, Color> CONTENDERS = Map.of(
            "distlock", new Color(0x1F, 0x6F, 0xB4),
            "distlock-fixed", new Color(0x9E, 0xC2, 0xE6),
            "redisson", new Color(0xD6, 0x27, 0x28),
            "si-spin", new Color(0x2C, 0xA0, 0x2C),
            "si-pubsub", new Color(0x98, 0xDF, 0x8A),
            "floor", new Color(0x8C, 0x8C, 0x8C));
    /** For contenders without a colour of their own. */
    private static final List<Color> SPARE = List.of(new Color(0x94, 0x67, 0xBD), new Color(0xFF, 0x7F, 0x0E),
            new Color(0x8C, 0x56, 0x4B), new Color(0x17, 0xBE, 0xCF));
    /** Percentiles, light to dark: the longer the wait, the darker the bar. */
    static final List<Color> PERCENTILES = List.of(new Color(0x9E, 0xCA, 0xE1), new Color(0x42, 0x92, 0xC6),
            new Color(0x08, 0x30, 0x6B));
    static final Color MARKER = new Color(0x40, 0x40, 0x40);
    private static final Color GRID = new Color(0xDD, 0xDD, 0xDD);
    static final Font TITLE = new Font(Font.SANS_SERIF, Font.BOLD, 16);
    static final Font SUBTITLE = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font LABEL = new Font(Font.SANS_SERIF, Font.PLAIN, 12);
    static final Font SMALL = new Font(Font.SANS_SERIF, Font.PLAIN, 10);

    private ChartStyle() {
    }

    /** The colour of {@code contender}; the {@code index}-th spare one for a contender without its own. */
    static Paint contender(String contender, int index) {
        Color color = CONTENDERS.get(contender);
        return color != null ? color : SPARE.get(index % SPARE.size());
    }

    /** White plot, light grid, flat bars, the given subtitle, and value labels on the bars in {@code format}. */
    static void apply(JFreeChart chart, String subtitle, String format) {
        chart.setBackgroundPaint(Color.WHITE);
        chart.getTitle().setFont(TITLE);
        TextTitle sub = new TextTitle(subtitle, SUBTITLE);
        sub.setPadding(new RectangleInsets(2, 0, 6, 0));
        chart.addSubtitle(sub);
        if (chart.getLegend() != null) {
            chart.getLegend().setItemFont(LABEL);
            chart.getLegend().setFrame(org.jfree.chart.block.BlockBorder.NONE);
        }
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setOutlineVisible(false);
        plot.setRangeGridlinePaint(GRID);
        plot.setRangeGridlineStroke(new BasicStroke(1f));
        CategoryAxis domain = plot.getDomainAxis();
        domain.setTickLabelFont(LABEL);
        domain.setMaximumCategoryLabelLines(3);
        domain.setCategoryMargin(0.25);
        plot.getRangeAxis().setTickLabelFont(LABEL);
        plot.getRangeAxis().setLabelFont(LABEL);
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setDrawBarOutline(false);
        bars.setItemMargin(0.04);
        bars.setMaximumBarWidth(0.06); // a few contenders must not make slabs
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", new DecimalFormat(format)));
        bars.setDefaultItemLabelFont(SMALL);
        bars.setDefaultItemLabelsVisible(true);
    }
}
