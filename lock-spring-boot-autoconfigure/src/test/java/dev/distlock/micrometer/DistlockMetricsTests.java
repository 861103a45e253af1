package dev.distlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.HoldKind;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Each meter, its tags and counts, fed with events as the registries send them. */
class DistlockMetricsTests {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();

    private final DistlockMetrics metrics = new DistlockMetrics(registry);

    @Test
    void anAcquisitionRecordsItsWaitAsAcquiredAndOpensAnActiveHold() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ofMillis(40), null));

        Timer acquired = acquireTimer("pay", "acquired");
        assertThat(acquired.count()).isEqualTo(1);
        assertThat(acquired.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(40);
        assertThat(activeHolds("pay")).isEqualTo(1);
    }

    @Test
    void failedAcquisitionsAreToldApartByTheirError() {
        metrics.onAcquireFailed(event("a", "pay", 0, Duration.ofMillis(100), null));
        metrics.onAcquireFailed(event("a", "pay", 0, Duration.ofMillis(5), new InterruptedException()));
        metrics.onAcquireFailed(event("a", "pay", 0, Duration.ofMillis(2), new IllegalStateException("down")));
        metrics.onAcquireFailed(event("a", "pay", 0, Duration.ofMillis(3), new IllegalStateException("down")));

        assertThat(acquireTimer("pay", "timeout").totalTime(TimeUnit.MILLISECONDS)).isEqualTo(100);
        assertThat(acquireTimer("pay", "interrupted").count()).isEqualTo(1);
        assertThat(acquireTimer("pay", "error").count()).isEqualTo(2);
        assertThat(acquireTimer("pay", "acquired").count()).isZero();
        assertThat(activeHolds("pay")).isZero();
    }

    @Test
    void aReleaseRecordsHowLongTheLockWasHeldAndClosesTheHold() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onReleased(event("order:1", "pay", 7, Duration.ofMillis(250), null));

        Timer released = heldTimer("pay", "released");
        assertThat(released.count()).isEqualTo(1);
        assertThat(released.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(250);
        assertThat(activeHolds("pay")).isZero();
    }

    @Test
    void aLossIsCountedAndEndsTheHoldAsLost() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onLost(event("order:1", "pay", 7, Duration.ofSeconds(31), null));

        assertThat(registry.get(DistlockMetrics.LOST).tag("lock", "pay").counter().count()).isEqualTo(1);
        assertThat(heldTimer("pay", "lost").totalTime(TimeUnit.SECONDS)).isEqualTo(31);
        assertThat(heldTimer("pay", "released").count()).isZero();
        assertThat(activeHolds("pay")).isZero();
    }

    @Test
    void aFailedReleaseIsCountedAndEndsTheHold() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onReleaseFailed(event("order:1", "pay", 7, Duration.ofMillis(9), backendError()));

        assertThat(registry.get(DistlockMetrics.RELEASE_FAILURES).tag("lock", "pay").counter().count())
                .isEqualTo(1);
        assertThat(heldTimer("pay", "release_failed").count()).isEqualTo(1);
        assertThat(activeHolds("pay")).isZero();
    }

    @Test
    void aHoldFoundLostWhileItsReleaseFailsEndsOnceButBothAreCounted() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onReleaseFailed(event("order:1", "pay", 7, Duration.ofMillis(9), backendError()));
        metrics.onLost(event("order:1", "pay", 7, Duration.ofMillis(10), null));

        assertThat(registry.get(DistlockMetrics.HELD).timers().stream().mapToLong(Timer::count).sum()).isEqualTo(1);
        assertThat(heldTimer("pay", "release_failed").count()).isEqualTo(1);
        assertThat(registry.get(DistlockMetrics.LOST).counter().count()).isEqualTo(1);
        assertThat(registry.get(DistlockMetrics.RELEASE_FAILURES).counter().count()).isEqualTo(1);
        assertThat(activeHolds("pay")).isZero();
    }

    @Test
    void aRenewalFailureIsCountedWhileTheHoldStaysOpen() {
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onRenewalFailed(event("order:1", "pay", 7, Duration.ofSeconds(10), backendError()));

        assertThat(registry.get(DistlockMetrics.RENEWAL_FAILURES).tag("lock", "pay").counter().count())
                .isEqualTo(1);
        assertThat(activeHolds("pay")).isEqualTo(1);
    }

    @Test
    void anAcquireThatKeepsMeetingTransientErrorsIsCountedOnceWithoutEndingIt() {
        metrics.onAcquireRetrying(event("order:1", "pay", 0, Duration.ofSeconds(1), backendError()));

        assertThat(registry.get(DistlockMetrics.ACQUIRE_RETRYING).tag("lock", "pay").counter().count()).isEqualTo(1);
        assertThat(registry.get(DistlockMetrics.ACQUIRE).tag("lock", "pay").timers())
                .allSatisfy(timer -> assertThat(timer.count()).isZero());
    }

    @Test
    void holdsAreToldApartByNameAndFencingToken() {
        // tokens come from the clock, so two names may get the same one
        metrics.onAcquired(event("order:1", "pay", 7, Duration.ZERO, null));
        metrics.onAcquired(event("order:2", "pay", 7, Duration.ZERO, null));
        metrics.onAcquired(event("order:3", "pay", 8, Duration.ZERO, null));
        metrics.onReleased(event("order:2", "pay", 7, Duration.ZERO, null));
        metrics.onReleased(event("order:2", "pay", 7, Duration.ZERO, null));

        assertThat(activeHolds("pay")).isEqualTo(2);
        assertThat(heldTimer("pay", "released").count()).isEqualTo(1);
    }

    @Test
    void locksWithoutALabelAreTaggedUnlabeledAndNeverByName() {
        metrics.onAcquired(event("order:12345", null, 1, Duration.ZERO, null));

        assertThat(acquireTimer(DistlockMetrics.UNLABELED, "acquired").count()).isEqualTo(1);
        assertThat(registry.getMeters()).flatExtracting(meter -> meter.getId().getTags())
                .extracting(Tag::getValue).doesNotContain("order:12345");
    }

    @Test
    void everyMeterOfALabelIsRegisteredAtItsFirstEventUnderFixedNamesAndTags() {
        metrics.onRenewalFailed(event("order:1", "pay", 7, Duration.ZERO, backendError()));

        assertThat(registry.getMeters()).extracting(meter -> meter.getId().getName() + meter.getId().getTags())
                .containsExactlyInAnyOrder(
                        "distlock.acquire[tag(kind=lock), tag(lock=pay), tag(outcome=acquired)]",
                        "distlock.acquire[tag(kind=lock), tag(lock=pay), tag(outcome=timeout)]",
                        "distlock.acquire[tag(kind=lock), tag(lock=pay), tag(outcome=interrupted)]",
                        "distlock.acquire[tag(kind=lock), tag(lock=pay), tag(outcome=error)]",
                        "distlock.held[tag(kind=lock), tag(lock=pay), tag(outcome=released)]",
                        "distlock.held[tag(kind=lock), tag(lock=pay), tag(outcome=lost)]",
                        "distlock.held[tag(kind=lock), tag(lock=pay), tag(outcome=release_failed)]",
                        "distlock.acquire.retrying[tag(kind=lock), tag(lock=pay)]",
                        "distlock.held.active[tag(kind=lock), tag(lock=pay)]",
                        "distlock.lost[tag(kind=lock), tag(lock=pay)]",
                        "distlock.skipped[tag(kind=lock), tag(lock=pay)]",
                        "distlock.release.failures[tag(kind=lock), tag(lock=pay)]",
                        "distlock.renewal.failures[tag(kind=lock), tag(lock=pay)]");
        assertThat(registry.getMeters()).extracting(meter -> meter.getId().getType()).contains(
                Meter.Type.TIMER, Meter.Type.LONG_TASK_TIMER, Meter.Type.COUNTER);
    }

    @Test
    void eachKindOfHoldIsCountedApartUnderItsKindTag() {
        metrics.onAcquired(new LockEvent("prices", "prices", 7, Duration.ZERO, null, null, HoldKind.READ));
        metrics.onAcquired(new LockEvent("prices", "prices", 8, Duration.ZERO, null, null, HoldKind.READ));
        metrics.onAcquired(new LockEvent("supplier", "prices", 9, Duration.ZERO, null, null, HoldKind.PERMITS));
        metrics.onReleased(new LockEvent("prices", "prices", 7, Duration.ZERO, null, null, HoldKind.READ));

        assertThat(registry.get(DistlockMetrics.ACQUIRE).tags(DistlockMetrics.LOCK_TAG, "prices",
                DistlockMetrics.KIND_TAG, "read", DistlockMetrics.OUTCOME_TAG, "acquired").timer().count()).isEqualTo(2);
        assertThat(registry.get(DistlockMetrics.ACQUIRE).tags(DistlockMetrics.LOCK_TAG, "prices",
                DistlockMetrics.KIND_TAG, "permits", DistlockMetrics.OUTCOME_TAG, "acquired").timer().count())
                .isEqualTo(1);
        assertThat(registry.get(DistlockMetrics.HELD_ACTIVE).tags(DistlockMetrics.KIND_TAG, "read").longTaskTimer()
                .activeTasks()).isEqualTo(1);
        assertThat(registry.getMeters()).extracting(meter -> meter.getId().getTag(DistlockMetrics.KIND_TAG))
                .containsOnly("read", "permits");
    }

    @Test
    void theNumberOfMetersDependsOnLabelsOnlyNotOnLockNames() {
        List<String> labels = List.of("OrderService.pay", "InvoiceJob.run", "StockService.reserve");
        for (int i = 0; i < labels.size(); i++) {
            lockAndRelease("warm-up:" + i, labels.get(i), i);
        }
        int metersForThreeLabels = registry.getMeters().size();

        for (int i = 0; i < 10_000; i++) {
            String name = "order:" + i;
            String label = labels.get(i % labels.size());
            lockAndRelease(name, label, 1_000 + i);
            metrics.onAcquireFailed(event(name, label, 0, Duration.ofMillis(1), null));
            metrics.onLost(event(name, label, 1_000 + i, Duration.ofMillis(1), null));
        }

        assertThat(metersForThreeLabels).isEqualTo(3 * 13);
        assertThat(registry.getMeters()).hasSize(metersForThreeLabels);
        assertThat(registry.get(DistlockMetrics.ACQUIRE).tag("outcome", "acquired").timers())
                .extracting(Timer::count).containsOnly(3_334L, 3_334L, 3_335L);
        assertThat(registry.get(DistlockMetrics.HELD_ACTIVE).longTaskTimers())
                .allSatisfy(active -> assertThat(active.activeTasks()).isZero());
    }

    private void lockAndRelease(String name, String label, long token) {
        metrics.onAcquired(event(name, label, token, Duration.ofMillis(1), null));
        metrics.onReleased(event(name, label, token, Duration.ofMillis(2), null));
    }

    private Timer acquireTimer(String label, String outcome) {
        return registry.get(DistlockMetrics.ACQUIRE).tag("lock", label).tag("outcome", outcome).timer();
    }

    private Timer heldTimer(String label, String outcome) {
        return registry.get(DistlockMetrics.HELD).tag("lock", label).tag("outcome", outcome).timer();
    }

    private int activeHolds(String label) {
        return registry.get(DistlockMetrics.HELD_ACTIVE).tag("lock", label).longTaskTimer().activeTasks();
    }

    private static LockEvent event(String name, String label, long token, Duration elapsed, Throwable error) {
        return new LockEvent(name, label, token, elapsed, error);
    }

    private static LockBackendException backendError() {
        return new LockBackendException("order:1", "release", new IllegalStateException("connection reset"));
    }
}
