package dev.distlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockEvent;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboard in {@code docs/grafana} queries the meters the code registers, under the names a Prometheus
 * scrape gives them, and shows every one of them.
 */
class GrafanaDashboardTest {

    private static final Path DASHBOARD = Path.of("..", "docs", "grafana", "distlock-dashboard.json");
    private static final Pattern EXPRESSION = Pattern.compile("\"expr\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern METRIC = Pattern.compile("\\bdistlock_[a-z_]+");

    @Test
    void everyMetricTheDashboardQueriesIsOneTheMetersPublish() throws Exception {
        Set<String> scraped = new TreeSet<>();
        for (String line : meters().scrape().split("\n")) {
            if (line.startsWith("distlock_")) {
                scraped.add(line.split("[{ ]", 2)[0]);
            }
        }
        Set<String> queried = queriedNames();

        assertThat(queried).as("metrics the dashboard queries").isNotEmpty();
        assertThat(scraped).as("metrics a Prometheus scrape of distlock's meters has").containsAll(queried);
    }

    @Test
    void everyMeterIsShownOnTheDashboard() throws Exception {
        PrometheusMeterRegistry registry = meters();
        Set<String> queried = queriedNames();
        Set<String> families = new TreeSet<>();
        registry.getMeters().forEach(meter -> families.add(registry.config().namingConvention()
                .name(meter.getId().getName(), meter.getId().getType(), meter.getId().getBaseUnit())));

        assertThat(families).as("distlock's meters").hasSize(8);
        for (String family : families) {
            assertThat(queried).as("a panel of %s", family).anyMatch(name -> name.startsWith(family + "_"));
        }
    }

    @Test
    void theDashboardFiltersAndGroupsByTheTagsTheMetersHave() throws Exception {
        String dashboard = Files.readString(DASHBOARD);
        assertThat(dashboard).contains("lock=~\\\"$lock\\\"", "by (outcome)", "by (lock)");
        assertThat(DistlockMetrics.LOCK_TAG).isEqualTo("lock");
        assertThat(DistlockMetrics.OUTCOME_TAG).isEqualTo("outcome");
    }

    private static Set<String> queriedNames() throws Exception {
        Set<String> names = new TreeSet<>();
        Matcher expressions = EXPRESSION.matcher(Files.readString(DASHBOARD));
        while (expressions.find()) {
            Matcher metrics = METRIC.matcher(expressions.group(1));
            while (metrics.find()) {
                names.add(metrics.group());
            }
        }
        return names;
    }

    /** distlock's meters after one label saw an acquisition and a release, with the wait's histogram on. */
    private static PrometheusMeterRegistry meters() {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getName().equals(DistlockMetrics.ACQUIRE)
                        ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
                        : config;
            }
        });
        DistlockMetrics metrics = new DistlockMetrics(registry);
        metrics.onAcquired(new LockEvent("order:1", "pay", 7, Duration.ofMillis(3), null));
        metrics.onReleased(new LockEvent("order:1", "pay", 7, Duration.ofMillis(20), null));
        metrics.skippedCalls();
        return registry;
    }
}
