package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.Lease;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.acquire.Attempt;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.spi.AcquireResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What an {@link Attempt} leaves behind when it closes: nothing, an abandon sent at once, or a background clean-up
 * (one more a second after its answer when a command of the token may still be on its way). On a
 * {@link VirtualRuntime}, so each send is timed exactly.
 */
@BoundedTest
class AttemptCleanUpTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final VirtualRuntime clock = new VirtualRuntime();
    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.TestRegistry registry = EngineFixtures.registry(store,
            EngineFixtures.settings().runtime(clock));
    private final LockRequest request = ((StoreLockRegistry) registry).engine().request("n", Lease.renewed(Duration.ofSeconds(30)), null);
    private final AtomicInteger notices = new AtomicInteger();
    private final Attempt attempt = new Attempt(((StoreLockRegistry) registry).engine(), request, "t", notices::incrementAndGet, true);
    private final long start = clock.nanoTime();
    private final List<Long> abandonedAtMillis = new ArrayList<>();
    private long seen;

    @AfterEach
    void close() {
        registry.close();
    }

    /** Runs for {@code millis}, a millisecond at a time, noting when each abandon of the token was sent. */
    private void runFor(long millis) {
        note();
        for (long ms = 0; ms < millis; ms++) {
            clock.advance(MS);
            note();
        }
    }

    private void note() {
        clock.runPending();
        for (long count = store.count("abandon n t"); seen < count; seen++) {
            abandonedAtMillis.add((clock.nanoTime() - start) / MS);
        }
    }

    @Test
    void aTokenWhoseCommandGotNoAnswerIsCleanedUpAndOnceMoreASecondLater() {
        // the unanswered command may still reach the store after the first clean-up
        attempt.sending();
        attempt.noAnswer();

        attempt.close(false);
        runFor(3_000);

        assertThat(abandonedAtMillis).containsExactly(0L, 1_000L);
    }

    @Test
    void aTokenClosedWhileTheStoreAnswersIsAbandonedAtOnceAndOnce() {
        attempt.sending();

        attempt.close(false);
        attempt.close(false);
        runFor(3_000);

        assertThat(abandonedAtMillis).containsExactly(0L);
    }

    @Test
    void anAbandonSentAtOnceThatFailsIsTakenOverByTheCleanUpAsIfItsOutcomeWereUnknown() {
        // the failed abandon may have run, or may still run: the clean-up follows it a second later too
        store.failAbandons.set(1);
        attempt.sending();

        attempt.close(false);
        runFor(3_000);

        assertThat(abandonedAtMillis).containsExactly(0L, 0L, 1_000L);
    }

    @Test
    void aTokenClosedAfterTheCallersWaitIsCleanedUpInTheBackgroundRetriedAfterFiftyMilliseconds() {
        store.failAbandons.set(1);
        attempt.sending();

        attempt.close(true);
        runFor(3_000);

        assertThat(abandonedAtMillis).containsExactly(0L, 50L);
    }

    @Test
    void aSingleTryThatFoundTheNameHeldLeavesNothingToCleanUp() {
        attempt.sending();
        attempt.received(start, AcquireResult.busy(1_000, 0), false);
        assertThat(attempt.mustLeave()).isFalse();

        attempt.close(false);
        runFor(2_000);

        assertThat(abandonedAtMillis).isEmpty();
    }

    @Test
    void aQueuedTryMustLeaveAndLeavingTellsWhetherTheLockWasHandedOverMeanwhile() {
        attempt.sending();
        attempt.received(start, AcquireResult.busy(1_000, 0), true);
        assertThat(attempt.mustLeave()).as("its queue entry").isTrue();

        assertThat(attempt.left(start, AcquireResult.busy(-1, 0), null)).isNull();
        assertThat(attempt.mustLeave()).as("left, nothing handed over").isFalse();

        Hold handed = attempt.left(start, AcquireResult.acquired(5, 0), null);
        assertThat(handed).isNotNull();
        assertThat(handed.fencingToken).isEqualTo(5);
        assertThat(attempt.mustLeave()).as("the hold owns it").isFalse();
        attempt.close(false);
        runFor(2_000);
        assertThat(abandonedAtMillis).isEmpty();
    }

    @Test
    void leavingThatFailedLeavesTheOutcomeUnknownForTheCleanUp() {
        attempt.sending();
        attempt.received(start, AcquireResult.busy(1_000, 0), true);

        assertThat(attempt.left(start, null, new IllegalStateException("no answer"))).isNull();
        attempt.close(false);
        runFor(3_000);

        assertThat(abandonedAtMillis).containsExactly(0L, 1_000L);
    }

    @Test
    void aWithdrawalTheStoreAnsweredLeavesNothingAndAFailedOneLeavesItToTheCleanUp() {
        attempt.sending();
        attempt.withdrawn(null);
        attempt.close(false);
        runFor(2_000);
        assertThat(abandonedAtMillis).isEmpty();

        Attempt failed = new Attempt(((StoreLockRegistry) registry).engine(), request, "t", () -> { }, true);
        failed.sending();
        failed.withdrawn(new IllegalStateException("no answer"));
        failed.close(false);
        runFor(3_000);
        assertThat(abandonedAtMillis).containsExactly(2_000L, 3_000L);
    }

    @Test
    void aClosedAttemptHearsNoMoreNotices() {
        // its token is being abandoned: a hand-off to it is not this call's any more
        long fence = store.tryAcquire("n", "holder", 30_000, false, 1_000).fencingToken();
        attempt.sending();
        attempt.send(true);
        clock.runPending();
        assertThat(store.memory.waitersQueued("n")).isEqualTo(1);

        attempt.close(false); // its abandon is sent, not run yet
        store.release("n", "holder", fence); // hands the lock to the token still queued

        assertThat(notices).hasValue(0);
        runFor(10);
        assertThat(store.isLocked("n")).as("abandoned").isFalse();
    }

    @Test
    void aNonBlockingCallersTryGoesOutWithoutWaitingABlockingCallersIsAnsweredOnItsThread() {
        CompletionStage<AcquireResult> sent = attempt.send(false);
        assertThat(sent.toCompletableFuture()).as("handed to the call executor").isNotDone();
        clock.runPending();
        assertThat(sent.toCompletableFuture()).isCompletedWithValueMatching(AcquireResult::acquired);

        Attempt blocking = new Attempt(((StoreLockRegistry) registry).engine(), request, "b", null, false);
        assertThat(blocking.send(false).toCompletableFuture()).as("answered on return").isDone();
    }

    @Test
    void anAnswerIsTimedFromItsSend() {
        long sent = attempt.sending();
        clock.advance(7 * MS);

        attempt.received(sent, AcquireResult.busy(1_000, 0), true);

        assertThat(attempt.answeredNanos()).isEqualTo(start + 7 * MS);
        assertThat(attempt.lastReplyNanos()).isEqualTo(7 * MS);
        assertThat(attempt.answers()).isEqualTo(1);
    }
}
