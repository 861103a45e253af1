package dev.distlock.samples.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RoundResultTest {

    private final RoundResult result = new RoundResult(100, 2, 98, 1, 0, 0.5, 4.25, 12.0, 98, 196.0, 30.5, 7, 3,
            1_795_242_929_169_015L);

    @Test
    void aResultSurvivesItsLineUnchanged() {
        assertThat(RoundResult.parse(result.toLine())).isEqualTo(result);
    }

    @Test
    void aResultWithoutPercentilesSurvivesItsLineToo() {
        RoundResult none = new RoundResult(5, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0, 0, Double.NaN, 0, 0,
                0);

        RoundResult parsed = RoundResult.parse(none.toLine());

        assertThat(parsed.waitP50()).isNaN();
        assertThat(parsed.heldMaxMillis()).isNaN();
        assertThat(parsed.attempted()).isEqualTo(5);
    }

    @Test
    void aLineWithAFieldMissingIsRefusedNamingIt() {
        String line = result.toLine().replaceAll("auditSkips=\\S+ ", "");

        assertThatThrownBy(() -> RoundResult.parse(line)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("auditSkips");
    }

    @Test
    void mergingAddsCountsAndTotalsAndKeepsTheLargestPercentilesAndMaxima() {
        RoundResult other = new RoundResult(50, 0, 50, 0, 1, 0.8, 3.0, Double.NaN, 50, 104.0, 40.0, 2, 5, 7);

        RoundResult merged = RoundResult.merge(List.of(result, other));

        assertThat(merged.attempted()).isEqualTo(150);
        assertThat(merged.failed()).isEqualTo(2);
        assertThat(merged.acquired()).isEqualTo(148);
        assertThat(merged.lost()).isEqualTo(1);
        assertThat(merged.waitP50()).isEqualTo(0.8);
        assertThat(merged.waitP95()).isEqualTo(4.25);
        assertThat(merged.waitP99()).isEqualTo(12.0);
        assertThat(merged.heldMeanMillis()).isEqualTo(300.0 / 148);
        assertThat(merged.heldMaxMillis()).isEqualTo(40.0);
        assertThat(merged.auditRuns()).isEqualTo(9);
        assertThat(merged.auditSkips()).isEqualTo(8);
        assertThat(merged.highestFence()).isEqualTo(1_795_242_929_169_015L);
    }

    @Test
    void sinceSubtractsCountsAndTotalsButKeepsPercentilesAndMaxima() {
        RoundResult earlier = new RoundResult(0, 0, 8, 1, 0, 9.0, 9.0, 9.0, 8, 16.0, 99.0, 5, 1, 0);

        RoundResult since = result.since(earlier).withWorkload(40, 1, 12);

        assertThat(since.acquired()).isEqualTo(90);
        assertThat(since.timeouts()).isZero();
        assertThat(since.held()).isEqualTo(90);
        assertThat(since.heldTotalMillis()).isEqualTo(180.0);
        assertThat(since.auditRuns()).isEqualTo(2);
        assertThat(since.auditSkips()).isEqualTo(2);
        assertThat(since.waitP99()).isEqualTo(12.0);
        assertThat(since.heldMaxMillis()).isEqualTo(30.5);
        assertThat(since.attempted()).isEqualTo(40);
        assertThat(since.failed()).isEqualTo(1);
        assertThat(since.highestFence()).isEqualTo(12);
    }
}
