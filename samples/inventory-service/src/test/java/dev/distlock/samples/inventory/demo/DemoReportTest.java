package dev.distlock.samples.inventory.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class DemoReportTest {

    private static final RoundOutcome EXACT = new RoundOutcome(true,
            new RoundResult(4500, 0, 4500, 0, 0, 0.45, 3.5, 12.25, 4500, 9000, 40, 20, 4, 1_795_242_929_169_015L),
            4500, 4500, Duration.ofMillis(8100));
    private static final RoundOutcome LOSSY = new RoundOutcome(false,
            new RoundResult(4500, 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN, 0, 0, Double.NaN, 6, 1, 0),
            4500, 1861, Duration.ofMillis(1600));

    @Test
    void theReportShowsBothRoundsSideBySideWithTheLostUpdates() {
        DemoReport report = new DemoReport(EXACT, LOSSY);

        String printed = print(report);

        assertThat(printed).containsPattern("reservations attempted +4,500 +4,500")
                .containsPattern("units taken from stock \\(the stock rows\\) +4,500 +1,861")
                .containsPattern("lost updates +0 +2,639")
                .containsPattern("lock acquisitions +4,500 +-")
                .containsPattern("wait for the lock p50 / p95 / p99 \\(ms\\)\\* +0.45 / 3.50 / 12 +-")
                .containsPattern("lock held mean / max \\(ms\\) +2.00 / 40 +-")
                .containsPattern("highest fencing token +1795242929169015 +-")
                .containsPattern("scheduled audit: runs / turns skipped +20 / 4 +6 / 1")
                .contains("With the lock the stock is exact: 4,500 reservations, 4,500 units taken.",
                        "Without it 2,639 updates were lost");
        assertThat(report.exitStatus()).isZero();
    }

    @Test
    void aRoundWithTheLockThatIsNotExactFailsTheDemo() {
        RoundOutcome wrong = new RoundOutcome(true, EXACT.instances(), 4500, 4499, Duration.ofSeconds(8));
        DemoReport report = new DemoReport(wrong, LOSSY);

        assertThat(report.lockedRoundExact()).isFalse();
        assertThat(report.exitStatus()).isEqualTo(1);
        assertThat(print(report)).contains("With the lock the stock is NOT exact");
    }

    @Test
    void reservationsThatGaveUpWaitingForTheLockAreFailuresNotLostUpdates() {
        RoundResult timedOut = new RoundResult(4500, 9, 4491, 9, 0, 0.45, 3.5, 900, 4491, 9000, 4884, 20, 4, 1);
        RoundOutcome busy = new RoundOutcome(true, timedOut, 4491, 4491, Duration.ofSeconds(19));
        DemoReport report = new DemoReport(busy, LOSSY);

        assertThat(report.lockedRoundExact()).isTrue();
        assertThat(report.exitStatus()).isZero();
        assertThat(print(report)).contains("With the lock the stock is exact: 4,491 reservations, 4,491 units taken.",
                "9 reservations failed and changed nothing: 9 of them gave up waiting for the lock");
    }

    @Test
    void aRunWithoutLostUpdatesSaysSoRatherThanClaimingSome() {
        RoundOutcome lucky = new RoundOutcome(false, LOSSY.instances(), 4500, 4500, Duration.ofSeconds(2));

        assertThat(print(new DemoReport(EXACT, lucky)))
                .contains("Without it no update happened to be lost this time");
    }

    private static String print(DemoReport report) {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        report.print(new PrintStream(output, true, StandardCharsets.UTF_8));
        return output.toString(StandardCharsets.UTF_8);
    }
}
