package dev.distlock.benchmarks.charts;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.benchmarks.results.ResultsFile;
import dev.distlock.benchmarks.results.RunResults;
import dev.distlock.benchmarks.results.RunResults.ContenderResult;
import dev.distlock.benchmarks.results.RunResults.ScenarioResult;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;
import tools.jackson.databind.json.JsonMapper;

/**
 * A small results file, written, read back and rendered: each chart is an SVG document whose bars are the expected
 * series and categories (JFreeChart's element hints name them on each bar's group) with the values as labels.
 */
class ChartFilesTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @TempDir
    Path dir;

    @Test
    void rendersTheThroughputCommandsAndLatencyChartsOfAResultsFile() throws Exception {
        Path file = dir.resolve("results.json");
        ResultsFile.write(smallRun(), file);

        List<Path> written = ChartFiles.write(ResultsFile.read(file), dir.resolve("charts"));

        assertThat(written).extracting(p -> p.getFileName().toString()).containsExactly(ChartFiles.THROUGHPUT,
                ChartFiles.COMMANDS, ChartFiles.latency(1), ChartFiles.latency(3));

        Document throughput = svg(dir.resolve("charts").resolve(ChartFiles.THROUGHPUT));
        assertThat(bars(throughput)).as("one bar per scenario and contender, the floor being the line at 1")
                .containsExactlyInAnyOrder(
                        List.of("distlock", "1: 1 thread"), List.of("redisson", "1: 1 thread"),
                        List.of("distlock", "3: 8 clients"), List.of("redisson", "3: 8 clients"));
        assertThat(texts(throughput)).contains("0.94", "0.83", "1.21", "0.38", "floor", "distlock", "redisson")
                .noneMatch(text -> text.equals("1.00"));

        Document commands = svg(dir.resolve("charts").resolve(ChartFiles.COMMANDS));
        assertThat(bars(commands)).contains(List.of("floor", "1: 1 thread"), List.of("floor", "3: 8 clients"))
                .hasSize(6);
        assertThat(texts(commands)).contains("7", "12", "4", "16", "34", "5.7");

        Document latency = svg(dir.resolve("charts").resolve(ChartFiles.latency(3)));
        assertThat(bars(latency)).containsExactlyInAnyOrder(
                List.of("p50", "distlock"), List.of("p99", "distlock"), List.of("p99.9", "distlock"),
                List.of("p50", "redisson"), List.of("p99", "redisson"), List.of("p99.9", "redisson"),
                List.of("p50", "floor"), List.of("p99", "floor"), List.of("p99.9", "floor"));
        assertThat(texts(latency)).contains("Scenario 3: 8 threads on one key", "0.73", "3.87", "14.6", "18.5");
    }

    @Test
    void aResultsFileReadsBackAsWritten() throws Exception {
        Path file = dir.resolve("results.json");
        RunResults run = smallRun();

        ResultsFile.write(run, file);

        assertThat(ResultsFile.read(file)).isEqualTo(run);
    }

    @Test
    void theRunPublishedInTheDocsRendersWithEveryScenario() throws Exception {
        RunResults published = ResultsFile.read(Path.of("..", "docs", "benchmarks", "results.json"));

        assertThat(published.scenarios()).extracting(ScenarioResult::number).containsExactly(1, 2, 3, 4, 5);
        assertThat(published.scenarios()).allSatisfy(s -> assertThat(s.rows()).extracting(ContenderResult::contender)
                .contains("distlock", "redisson", "si-spin", "si-pubsub", "floor"));
        assertThat(ChartFiles.write(published, dir)).hasSize(2 + 5);
    }

    /** Two scenarios, three contenders. */
    private static RunResults smallRun() {
        ScenarioResult one = new ScenarioResult(1, "uncontended, 1 thread", "1 thread", "floor", List.of(
                row("distlock", 0.94, 0.073, 0.109, 0.193, 7), row("redisson", 0.83, 0.074, 0.112, 0.264, 12),
                row("floor", 1.0, 0.067, 0.108, 0.166, 4)));
        ScenarioResult three = new ScenarioResult(3, "8 threads on one key", "8 clients", "floor", List.of(
                row("distlock", 1.21, 0.733, 0.941, 3.87, 16), row("redisson", 0.38, 1.76, 9.95, 14.6, 34),
                row("floor", 1.0, 0.252, 10.4, 18.5, 5.7)));
        return new RunResults(RunResults.FORMAT, "written by ChartFilesTest", "2026-11-26",
                new RunResults.Machine(2, "test CPU", 23.5, "Linux", "OpenJDK 17", "0.5 0.5 0.5", "1.0 1.0 1.0"),
                Map.of("distlock", "0.1.0-SNAPSHOT", "Redis", "7.0.15"),
                new RunResults.Settings(5, 1, true, 2, 8), Map.of("distlock", "d", "redisson", "r", "floor", "f"),
                List.of(one, three), List.of(new RunResults.RoundTripResult("distlock", 2, 7)),
                List.of(new RunResults.CostFigure("floor", 141_087, 80_357, 1_569, 2_543)), Map.of(), List.of());
    }

    private static ContenderResult row(String contender, double ratio, double p50, double p99, double p999,
            double commands) {
        return new ContenderResult(contender, 1000 * ratio, ratio, ratio, ratio, p50, p99, p999, p999 * 2, 1.0,
                commands, 50, true);
    }

    /** The SVG file as XML, without fetching the SVG DTD it names. */
    private static Document svg(Path file) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        byte[] bytes = Files.readString(file, StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(bytes));
    }

    /** Series and category of every bar: the element hint JFreeChart puts on each item's group. */
    private static List<List<String>> bars(Document svg) {
        List<List<String>> bars = new ArrayList<>();
        NodeList groups = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        for (int i = 0; i < groups.getLength(); i++) {
            String ref = ((Element) groups.item(i)).getAttributeNS("http://www.jfree.org/jfreesvg/svg", "ref");
            if (ref.startsWith("{")) {
                Map<?, ?> key = JSON.readValue(ref, Map.class);
                bars.add(List.of(String.valueOf(key.get("rowKey")), String.valueOf(key.get("columnKey"))));
            }
        }
        return bars;
    }

    private static List<String> texts(Document svg) {
        List<String> texts = new ArrayList<>();
        NodeList nodes = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "text");
        for (int i = 0; i < nodes.getLength(); i++) {
            texts.add(nodes.item(i).getTextContent());
        }
        return texts;
    }
}
