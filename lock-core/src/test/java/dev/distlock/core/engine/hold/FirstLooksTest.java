package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A new hold's first look ({@link FirstLooks}), on a {@link VirtualRuntime} whose timer is the test's: a far one is
 * planned with the other new holds' by one timer task a little later, and then falls due at the moment it would
 * have had, planned at once; a hold that ended before the plan gets no look; a near one is planned at once.
 */
@BoundedTest
class FirstLooksTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LEASE = 30_000;

    private final VirtualRuntime clock = new VirtualRuntime();
    private final EngineRuntime runtime = new EngineRuntime(clock);
    private final FaultyStore store = new FaultyStore();
    private final List<Hold> lost = new ArrayList<>();
    private final Watchdog watchdog = new Watchdog(AsyncLockStore.on(store, runtime.calls()), new Listeners(List.of()),
            (hold, reason) -> lost.add(hold), runtime);

    @AfterEach
    void close() {
        runtime.close();
    }

    /** A renewed hold whose first renewal is due {@code dueNanos} from now, trusted an hour. */
    private Hold hold(String name, long dueNanos) {
        long now = clock.nanoTime();
        long fence = store.tryAcquire(name, "t", LEASE, false, 1_000).fencingToken();
        return EngineFixtures.hold(runtime, new NameState(), name, "t", fence, LEASE, true,
                now + EngineFixtures.HOUR_NANOS, false, now + dueNanos);
    }

    @Test
    void farFirstLooksShareOnePlanAndFallDueWhenTheyWouldHave() {
        long start = clock.nanoTime();
        Hold a = hold("a", 10_000 * MS);
        Hold b = hold("b", 12_000 * MS);

        watchdog.start(a);
        watchdog.start(b);

        assertThat(clock.pendingTimers()).as("one plan for both").isEqualTo(1);
        assertThat(clock.nextTimerInNanos()).isEqualTo(FirstLooks.PLAN_NANOS);

        clock.advance(FirstLooks.PLAN_NANOS);

        assertThat(clock.pendingTimers()).as("a look each").isEqualTo(2);
        assertThat(clock.nanoTime() + clock.nextTimerInNanos()).as("a's look, when it was due")
                .isEqualTo(start + 10_000 * MS);
    }

    @Test
    void aHoldThatEndedBeforeThePlanGetsNoLook() {
        Hold hold = hold("a", 10_000 * MS);
        watchdog.start(hold);
        hold.end();
        watchdog.unwatch(hold);

        clock.advance(FirstLooks.PLAN_NANOS);

        assertThat(clock.pendingTimers()).isZero();
    }

    @Test
    void aNearFirstLookIsPlannedAtOnce() {
        long near = FirstLooks.AT_ONCE_NANOS - MS;
        Hold hold = hold("a", near);

        watchdog.start(hold);

        assertThat(clock.pendingTimers()).isEqualTo(1);
        assertThat(clock.nextTimerInNanos()).isEqualTo(near);
    }

    @Test
    void aHoldWhoseDeadlinePassesIsFoundLostWhenItWouldHaveBeenThoughItsLookWaitedForThePlan() {
        long now = clock.nanoTime();
        long fence = store.tryAcquire("a", "t", LEASE, false, 1_000).fencingToken();
        Hold fixed = EngineFixtures.hold(runtime, new NameState(), "a", "t", fence, LEASE, false,
                now + 1_000 * MS, false, now + EngineFixtures.HOUR_NANOS);

        watchdog.start(fixed);
        clock.advance(999 * MS);
        assertThat(lost).isEmpty();
        clock.advance(MS);

        assertThat(lost).containsExactly(fixed);
    }
}
