package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * When the {@link Watchdog} looks at a hold next, after each thing that can happen to it, on a {@link VirtualRuntime}
 * (its timer is the test's): after a confirmed renewal at the next renewal, after a failed one a tenth of the lease
 * on, after sending a renewal at the deadline (a renewal that never answers must not keep a hold alive), and a batch
 * whose renewals were all answered leaves no timer behind.
 */
@BoundedTest
class WatchdogTimingTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long LEASE = 30_000;

    private final VirtualRuntime clock = new VirtualRuntime();
    private final EngineRuntime runtime = new EngineRuntime(clock);
    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Heard heard = new EngineFixtures.Heard();
    private final Listeners listeners = new Listeners(List.of(heard));
    /** The instants (monotonic) at which holds were found lost. */
    private final List<Long> lostAt = new CopyOnWriteArrayList<>();
    private final Watchdog.Losses losses = (hold, reason) -> lostAt.add(clock.nanoTime());

    @AfterEach
    void close() {
        runtime.close();
    }

    private Watchdog watchdog(AsyncLockStore sends) {
        return new Watchdog(sends, listeners, losses, runtime);
    }

    /** A renewed hold of {@code name} in the store, trusted until {@code validUntil}, its renewal due at {@code due}. */
    private Hold hold(String name, long validUntil, long due) {
        long fence = store.tryAcquire(name, "t", LEASE, false, 1_000).fencingToken();
        return EngineFixtures.hold(runtime, new NameState(), name, "t", fence, LEASE, true, validUntil, false, due);
    }

    @Test
    void afterAConfirmedRenewalTheNextLookIsAtTheNextRenewal() {
        long now = clock.nanoTime();
        Hold hold = hold("a", now + 10 * MS, now + EngineFixtures.HOUR_NANOS);

        watchdog(AsyncLockStore.on(store, runtime.calls())).renewalAnswered(hold, true, now, LEASE, 0);

        assertThat(clock.pendingTimers()).isEqualTo(1);
        assertThat(clock.nextTimerInNanos()).isEqualTo(HoldClock.renewalDue(now, LEASE) - now);
    }

    @Test
    void afterAFailedRenewalTheNextLookIsATenthOfTheLeaseOnAndOnlyTheFirstOfAStreakIsWarnedOf() {
        long now = clock.nanoTime();
        Hold hold = hold("a", now + EngineFixtures.HOUR_NANOS, now + EngineFixtures.HOUR_NANOS);
        Watchdog watchdog = watchdog(AsyncLockStore.on(store, runtime.calls()));
        Logger log = (Logger) LoggerFactory.getLogger(Listeners.class);
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Level level = log.getLevel();
        log.setLevel(Level.DEBUG);
        log.addAppender(logged);
        try {
            watchdog.renewalFailed(hold, LEASE, new IllegalStateException("down"));
            assertThat(clock.nextTimerInNanos()).as("a tenth of the lease, at most a second")
                    .isEqualTo(HoldClock.retryDelayNanos(LEASE));
            watchdog.renewalFailed(hold, LEASE, new IllegalStateException("down again"));
        } finally {
            log.detachAppender(logged);
            log.setLevel(level);
        }

        assertThat(heard.kinds).containsExactly("renewalFailed", "renewalFailed");
        assertThat(logged.list).filteredOn(event -> event.getMessage().startsWith("Renewing the lease"))
                .extracting(ILoggingEvent::getLevel).containsExactly(Level.WARN, Level.DEBUG);
    }

    @Test
    void aHoldWhoseRenewalWasSentIsLookedAtAgainAtItsDeadlineAndLostThenIfNoAnswerCame() {
        // the renewal's own time limit (a quarter of the lease) may come after the deadline: the deadline wins
        long now = clock.nanoTime();
        Hold hold = hold("a", now + 10 * MS, now);
        AsyncLockStore silent = AsyncLockStore.on(store, task -> { }); // sends that never answer

        watchdog(silent).watch(hold);
        clock.advance(10 * MS - 1);
        assertThat(lostAt).isEmpty();
        clock.advance(1);

        assertThat(lostAt).containsExactly(now + 10 * MS);
    }

    @Test
    void aBatchWhoseRenewalsWereAllAnsweredCancelsItsTimeLimit() {
        long now = clock.nanoTime();
        Hold first = hold("a", now + EngineFixtures.HOUR_NANOS, now + EngineFixtures.HOUR_NANOS);
        Hold second = hold("b", now + EngineFixtures.HOUR_NANOS, now + EngineFixtures.HOUR_NANOS);
        Watchdog watchdog = watchdog(AsyncLockStore.on(store, runtime.calls()));
        RenewalBatches batches = new RenewalBatches(AsyncLockStore.on(store, runtime.calls()), runtime, watchdog);

        batches.renew(first, LEASE, 0);
        batches.renew(second, LEASE, 0);
        clock.advance(MS); // gathered for a millisecond, then sent and answered

        assertThat(store.count("renew")).isEqualTo(2);
        assertThat(clock.pendingTimers()).as("each hold's next look, and no time limit").isEqualTo(2);
        assertThat(clock.nextTimerInNanos()).isEqualTo(HoldClock.renewalDue(now + MS, LEASE) - clock.nanoTime());
        assertThat(heard.kinds).isEmpty();
    }

    @Test
    void aBatchOfOneAnsweredRenewalCancelsItsTimeLimit() {
        long now = clock.nanoTime();
        Hold hold = hold("a", now + EngineFixtures.HOUR_NANOS, now + EngineFixtures.HOUR_NANOS);
        Watchdog watchdog = watchdog(AsyncLockStore.on(store, runtime.calls()));
        RenewalBatches batches = new RenewalBatches(AsyncLockStore.on(store, runtime.calls()), runtime, watchdog);

        batches.renew(hold, LEASE, 0);
        clock.advance(MS);

        assertThat(clock.pendingTimers()).as("the hold's next look, and no time limit").isEqualTo(1);
    }

    @Test
    void anUnwatchedHoldIsNotLookedAtAgain() {
        long now = clock.nanoTime();
        Hold hold = hold("a", now + 10 * MS, now + EngineFixtures.HOUR_NANOS);
        Watchdog watchdog = watchdog(AsyncLockStore.on(store, runtime.calls()));
        watchdog.watch(hold);
        assertThat(clock.pendingTimers()).isEqualTo(1);

        watchdog.unwatch(hold);
        clock.advance(EngineFixtures.HOUR_NANOS);

        assertThat(clock.pendingTimers()).isZero();
        assertThat(lostAt).as("no look, so no loss at the deadline").isEmpty();
    }

    @Test
    void aRenewalNotAnsweredWithinAQuarterOfTheLeaseFailsAndItsLateAnswerChangesNothing() {
        // counted as failed, it is tried again: an answer after that must not move the deadline it no longer owns
        long now = clock.nanoTime();
        // trusted for 200 ms: a confirmation of the renewal sent at 1 ms would move that to 395 ms
        Hold hold = EngineFixtures.hold(runtime, new NameState(), "slow", "t",
                store.tryAcquire("slow", "t", 400, false, 1_000).fencingToken(), 400, true,
                now + 200 * MS, false, now + EngineFixtures.HOUR_NANOS);
        long deadline = hold.validUntilNanos();
        List<Runnable> unanswered = new CopyOnWriteArrayList<>();
        Watchdog watchdog = watchdog(AsyncLockStore.on(store, runtime.calls()));
        RenewalBatches batches = new RenewalBatches(AsyncLockStore.on(store, unanswered::add), runtime, watchdog);

        batches.renew(hold, 400, 0);
        clock.advance(MS); // sent
        clock.advance(HoldClock.renewalTimeoutNanos(400) - 1);
        assertThat(heard.kinds).isEmpty();
        clock.advance(1);
        assertThat(heard.kinds).as("failed at a quarter of the lease").containsExactly("renewalFailed");
        assertThat(heard.events.get(0).error()).hasCauseInstanceOf(java.util.concurrent.TimeoutException.class);

        unanswered.forEach(Runnable::run); // the store answers now, too late
        clock.runPending();

        assertThat(store.count("renew slow t")).isEqualTo(1);
        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
        assertThat(heard.kinds).containsExactly("renewalFailed");
        assertThat(lostAt).isEmpty();
    }
}
