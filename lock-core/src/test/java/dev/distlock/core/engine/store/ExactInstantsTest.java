package dev.distlock.core.engine.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.WaitTimers;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The engine's rules that turn on an exact instant, each tested at that instant and one nanosecond either side, on a
 * {@link VirtualRuntime} (time moves only when the test moves it; timers, steps and store calls run on the test's
 * thread): when a wait has run out, when a streak of errors counts as persistent, when a refused command may still be
 * sent again, and when a background clean-up gives up.
 */
@BoundedTest
class ExactInstantsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final VirtualRuntime clock = new VirtualRuntime();
    private final EngineRuntime runtime = new EngineRuntime(clock);
    private final FaultyStore store = new FaultyStore();

    @AfterEach
    void close() {
        runtime.close();
    }

    // --- WaitTimers ---

    @Test
    void aWaitRunsOutOnlyAfterItsLastNanosecondSoATryAnsweredAtTheDeadlineStillCounts() {
        // the deadline is the last instant of the wait: an answer that came then came within it
        WaitTimers time = new WaitTimers(runtime, 100 * MS);
        long deadline = VirtualRuntime.START_NANOS + 100 * MS;

        assertThat(time.isAfterDeadline(deadline - 1)).isFalse();
        assertThat(time.isAfterDeadline(deadline)).as("at the deadline").isFalse();
        assertThat(time.isAfterDeadline(deadline + 1)).as("a nanosecond after it").isTrue();
    }

    @Test
    void whatIsLeftOfAWaitIsItsLengthLessTheTimeSinceItStartedAndNothingOnceItRanOut() {
        WaitTimers time = new WaitTimers(runtime, 100 * MS);
        assertThat(time.remainingNanos()).isEqualTo(100 * MS);
        assertThat(time.waited()).isZero();

        clock.advance(40 * MS);
        assertThat(time.remainingNanos()).isEqualTo(60 * MS);
        assertThat(time.waited()).isEqualTo(java.time.Duration.ofMillis(40));

        clock.advance(61 * MS);
        assertThat(time.remainingNanos()).as("overdrawn, not clamped: the caller tests <= 0").isEqualTo(-MS);
    }

    @Test
    void theDeadlineFiresExactlyWhenTheWaitRunsOutAndAtOnceIfItAlreadyHas() {
        // armed late, the deadline is what is left of the wait, and never a negative delay
        WaitTimers time = new WaitTimers(runtime, 100 * MS);
        clock.advance(30 * MS);
        List<Long> fired = new ArrayList<>();

        time.armDeadline(() -> fired.add(clock.nanoTime()));
        assertThat(clock.nextTimerInNanos()).isEqualTo(70 * MS);
        clock.advance(70 * MS - 1);
        assertThat(fired).isEmpty();
        clock.advance(1);
        assertThat(fired).containsExactly(VirtualRuntime.START_NANOS + 100 * MS);

        WaitTimers overdrawn = new WaitTimers(runtime, 10 * MS);
        clock.advance(50 * MS);
        overdrawn.armDeadline(() -> fired.add(clock.nanoTime()));
        assertThat(clock.nextTimerInNanos()).as("due now, not in the past").isZero();
    }

    @Test
    void aSleepWakesByItsTimerAfterExactlyItsLength() {
        WaitTimers time = new WaitTimers(runtime, Long.MAX_VALUE);
        AtomicInteger woken = new AtomicInteger();

        time.sleep(25 * MS, woken::incrementAndGet);
        clock.advance(25 * MS - 1);
        assertThat(woken).hasValue(0);
        clock.advance(1);
        assertThat(woken).hasValue(1);
    }

    // --- TransientRetries ---

    @Test
    void aStreakOfTransientErrorsIsPersistentOnceItHasLastedExactlyASecondAndIsReportedOnce() {
        // "a second" is inclusive: an error a full second after the first one reports the streak
        List<String> reported = new ArrayList<>();
        TransientRetries retries = new TransientRetries(runtime, failure -> reported.add(failure.getMessage()));

        retries.failed(new IllegalStateException("first"));
        clock.advance(TransientRetries.PERSISTENT_NANOS - 1);
        retries.failed(new IllegalStateException("a nanosecond short"));
        assertThat(reported).isEmpty();

        clock.advance(1);
        retries.failed(new IllegalStateException("a second on"));
        clock.advance(TransientRetries.PERSISTENT_NANOS);
        retries.failed(new IllegalStateException("two seconds on"));
        assertThat(reported).as("reported once, with the error that made it persistent").containsExactly("a second on");
    }

    @Test
    void anAnswerEndsTheStreakSoTheNextErrorStartsANewOne() {
        AtomicInteger reports = new AtomicInteger();
        TransientRetries retries = new TransientRetries(runtime, failure -> reports.incrementAndGet());

        retries.failed(new IllegalStateException("1"));
        clock.advance(TransientRetries.PERSISTENT_NANOS);
        retries.answered();
        retries.failed(new IllegalStateException("a new streak starts here"));
        assertThat(reports).hasValue(0);

        clock.advance(TransientRetries.PERSISTENT_NANOS - 1);
        retries.failed(new IllegalStateException("a nanosecond short of the new streak's second"));
        assertThat(reports).hasValue(0);
        clock.advance(1);
        retries.failed(new IllegalStateException("the new streak's second"));
        assertThat(reports).hasValue(1);
    }

    @Test
    void aRetryNeedsSomeOfTheWaitLeftAndItsPauseIsCutToIt() {
        TransientRetries retries = new TransientRetries(runtime, failure -> { });

        assertThat(retries.retryWithin(0)).as("nothing left").isFalse();
        assertThat(retries.retryWithin(1)).as("a nanosecond left").isTrue();
        assertThat(retries.takePause()).isEqualTo(1);
    }

    // --- StoreCalls.refusedPauseNanos ---

    @Test
    void aRefusedCommandIsSentAgainWhileAnyTimeIsLeftBeforeTheDeadlineAndNeverAtIt() {
        // at the hold's deadline its lease may have run out: only until then can the release alone free the name
        long now = clock.nanoTime();

        assertThat(StoreCalls.refusedPauseNanos(runtime, 1, now)).as("at the deadline").isEqualTo(-1);
        assertThat(StoreCalls.refusedPauseNanos(runtime, 1, now - 1)).as("after it").isEqualTo(-1);
        assertThat(StoreCalls.refusedPauseNanos(runtime, 1, now + 1)).as("a nanosecond before it, cut to it")
                .isEqualTo(1);
        assertThat(StoreCalls.refusedPauseNanos(runtime, 1, now + TimeUnit.HOURS.toNanos(1)))
                .isBetween(5 * MS, 10 * MS);
    }

    // --- Cleanup ---

    private Cleanup cleanup() {
        return new Cleanup(AsyncLockStore.on(store, runtime.calls()), runtime);
    }

    /** The instants (ms after the start) at which the abandon of c/t was sent. */
    private final List<Long> sentAtMillis = new ArrayList<>();

    private long seen;
    /** The instant the sends are timed from. */
    private long origin = VirtualRuntime.START_NANOS;

    /** Runs what is pending, and notes the sends made since the last look as made now. */
    private void recordSends() {
        clock.runPending();
        for (long count = store.count("abandon c t"); seen < count; seen++) {
            sentAtMillis.add((clock.nanoTime() - origin) / MS);
        }
    }

    /** Moves time a millisecond at a time (each pause is whole milliseconds), noting when each send went out. */
    private void runFor(long millis) {
        recordSends();
        for (long ms = 0; ms < millis; ms++) {
            clock.advance(MS);
            recordSends();
        }
    }

    @Test
    void aFailedCleanupIsSentAgainAfterPausesThatDoubleFromFiftyMillisecondsToASecond() {
        store.failAbandons.set(Integer.MAX_VALUE);

        cleanup().abandon("c", "t", 5_000, false);
        runFor(6_000);

        // 50, 100, 200, 400, 800 ms, then a second each: until the lease (5 s) has passed
        assertThat(sentAtMillis).containsExactly(0L, 50L, 150L, 350L, 750L, 1_550L, 2_550L, 3_550L, 4_550L, 5_550L);
    }

    @Test
    void aFailedCleanupAnsweredExactlyWhenTheLeasePassesIsNotSentAgain() {
        // by the end of the lease whatever the token took has expired: a send then is one too many
        store.failAbandons.set(Integer.MAX_VALUE);
        cleanup().abandon("c", "t", 150, false);
        runFor(1_000);
        assertThat(sentAtMillis).as("the third send fails at 150 ms, the lease's end").containsExactly(0L, 50L, 150L);

        sentAtMillis.clear();
        store.sent.clear();
        seen = 0;
        origin = clock.nanoTime();
        cleanup().abandon("c", "t", 151, false);
        runFor(1_000);
        assertThat(sentAtMillis).as("a millisecond of lease left: sent once more").containsExactly(0L, 50L, 150L,
                350L);
    }

    @Test
    void aCleanupWhoseOutcomeIsUnknownIsSentOnceMoreASecondAfterItsAnswerAndNoMore() {
        // the try it cleans up after may still be on its way on another connection
        cleanup().abandon("c", "t", 30_000, true);
        runFor(3_000);

        assertThat(sentAtMillis).containsExactly(0L, 1_000L);
    }

    @Test
    void aCleanupThatRanIsNotSentAgain() {
        store.tryAcquire("c", "t", 30_000, false, 1_000);

        cleanup().abandon("c", "t", 30_000, false);
        runFor(3_000);

        assertThat(sentAtMillis).containsExactly(0L);
        assertThat(store.isLocked("c")).isFalse();
    }

    @Test
    void aCleanupWhoseRetryFindsTheRegistryClosedIsLeftToExpire() {
        store.failAbandons.set(Integer.MAX_VALUE);
        cleanup().abandon("c", "t", 30_000, false);
        recordSends();

        runtime.close(); // its timer refuses the retry: the lease ends what the token held
        runFor(1_000);

        assertThat(sentAtMillis).containsExactly(0L);
    }
}
