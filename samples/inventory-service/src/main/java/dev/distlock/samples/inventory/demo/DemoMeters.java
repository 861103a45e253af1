package dev.distlock.samples.inventory.demo;

import dev.distlock.micrometer.DistlockMetrics;
import dev.distlock.samples.inventory.InventoryService;
import dev.distlock.samples.inventory.StockAudit;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.HistogramSnapshot;
import io.micrometer.core.instrument.distribution.ValueAtPercentile;
import java.util.Collection;
import java.util.concurrent.TimeUnit;

/** Reads distlock's meters of one instance, as any application could. */
final class DemoMeters {

    private DemoMeters() {
    }

    /**
     * The meters' figures so far: reservation lock acquisitions, timeouts, wait percentiles (published
     * because the demo profile sets {@code management.metrics.distribution.percentiles.distlock.acquire})
     * and hold times, losses of any lock, and the audit's runs and the turns it left to the leader on another instance.
     */
    static RoundResult read(MeterRegistry meters) {
        Timer acquired = acquireTimer(meters, InventoryService.RESERVE_LOCK, "acquired");
        Collection<Timer> held = meters.find(DistlockMetrics.HELD)
                .tag(DistlockMetrics.LOCK_TAG, InventoryService.RESERVE_LOCK).timers();
        double lost = meters.find(DistlockMetrics.LOST).counters().stream().mapToDouble(c -> c.count()).sum();
        HistogramSnapshot waits = acquired != null ? acquired.takeSnapshot() : null;
        return new RoundResult(0, 0, count(acquired),
                count(acquireTimer(meters, InventoryService.RESERVE_LOCK, "timeout")), (long) lost,
                percentile(waits, 0.5), percentile(waits, 0.95), percentile(waits, 0.99),
                held.stream().mapToLong(Timer::count).sum(),
                held.stream().mapToDouble(timer -> timer.totalTime(TimeUnit.MILLISECONDS)).sum(),
                held.stream().mapToDouble(timer -> timer.max(TimeUnit.MILLISECONDS)).max().orElse(Double.NaN),
                auditTurns(meters, "ran"), auditTurns(meters, "skipped"), 0);
    }

    private static Timer acquireTimer(MeterRegistry meters, String lock, String outcome) {
        return meters.find(DistlockMetrics.ACQUIRE)
                .tags(DistlockMetrics.LOCK_TAG, lock, DistlockMetrics.OUTCOME_TAG, outcome).timer();
    }

    private static long auditTurns(MeterRegistry meters, String outcome) {
        Counter turns = meters.find(StockAudit.TURNS).tag("outcome", outcome).counter();
        return turns != null ? (long) turns.count() : 0;
    }

    private static long count(Timer timer) {
        return timer != null ? timer.count() : 0;
    }

    private static double percentile(HistogramSnapshot snapshot, double percentile) {
        if (snapshot == null || snapshot.count() == 0) {
            return Double.NaN;
        }
        for (ValueAtPercentile value : snapshot.percentileValues()) {
            if (value.percentile() == percentile) {
                return value.value(TimeUnit.MILLISECONDS);
            }
        }
        return Double.NaN;
    }
}
