package dev.distlock.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.hold.NameState;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.store.StoreCalls;
import dev.distlock.core.engine.store.TransientRetries;
import dev.distlock.core.engine.store.TryFailures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.random.RandomGenerator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Rules of the engine's arithmetic and classification, each at its edge: the longest retry pause, how deep a failure's
 * causes are searched for an interrupt, when a poll's pause is the holder's lease end, when a hold still counts for a
 * set of names, a lease read of zero, and the streak of errors an acquisition reports.
 */
@BoundedTest
class EngineRulesTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    /** Draws the largest value each time: the longest pause jitter allows. */
    private static final RandomGenerator LARGEST = new RandomGenerator() {
        @Override
        public long nextLong() {
            return Long.MAX_VALUE;
        }

        @Override
        public long nextLong(long bound) {
            return bound - 1;
        }
    };

    /** Draws the smallest value each time: the shortest pause jitter allows. */
    private static final RandomGenerator SMALLEST = new RandomGenerator() {
        @Override
        public long nextLong() {
            return 0;
        }

        @Override
        public long nextLong(long bound) {
            return 0;
        }
    };

    private final VirtualRuntime clock = new VirtualRuntime();
    private final EngineRuntime runtime = new EngineRuntime(clock);

    @AfterEach
    void close() {
        runtime.close();
    }

    @Test
    void aRetryPauseRangesFromHalfToAllOfItsFullLengthBothEndsIncluded() {
        // jitter leaves out up to half: the full pause itself is one of the pauses drawn
        assertThat(TransientRetries.pauseNanos(LARGEST, 1)).isEqualTo(10 * MS);
        assertThat(TransientRetries.pauseNanos(SMALLEST, 1)).isEqualTo(5 * MS);
        assertThat(TransientRetries.pauseNanos(LARGEST, 3)).isEqualTo(40 * MS);
        assertThat(TransientRetries.pauseNanos(LARGEST, 30)).as("at most 250 ms").isEqualTo(250 * MS);
        assertThat(TransientRetries.pauseNanos(SMALLEST, 30)).isEqualTo(125 * MS);
    }

    /** {@code failure} wrapped in {@code depth} further exceptions. */
    private static Throwable wrapped(Throwable failure, int depth) {
        Throwable outer = failure;
        for (int i = 0; i < depth; i++) {
            outer = new IllegalStateException("wrapper " + i, outer);
        }
        return outer;
    }

    @Test
    void anInterruptIsLookedForAmongTheFirstThirtyTwoCausesAndACyclicChainEndsTheSearch() {
        // a bound, so that a chain of causes that loops back on itself cannot keep the caller forever
        assertThat(StoreCalls.brokenByInterrupt(wrapped(new InterruptedException(), 31))).as("the 32nd").isTrue();
        assertThat(StoreCalls.brokenByInterrupt(wrapped(new InterruptedException(), 32))).as("the 33rd").isFalse();

        IllegalStateException first = new IllegalStateException("first");
        IllegalStateException second = new IllegalStateException("second", first);
        first.initCause(second);
        assertThat(StoreCalls.brokenByInterrupt(first)).isFalse();
    }

    @Test
    void aPollPausesUntilTheHoldersLeaseEndOnlyWhenItsLengthIsThatLeasePlusTheMillisecondItRoundsUp() {
        // the lease end is chosen when the pause is exactly the holder's lease plus one millisecond
        assertThat(HoldClock.pausesUntilLeaseEnd(6 * MS, 5)).isTrue();
        assertThat(HoldClock.pausesUntilLeaseEnd(5 * MS, 5)).isFalse();
        assertThat(HoldClock.pausesUntilLeaseEnd(4 * MS, 5)).isFalse();
        assertThat(HoldClock.pausesUntilLeaseEnd(MS, 0)).as("a lease ending now: a millisecond on").isTrue();
        assertThat(HoldClock.pausesUntilLeaseEnd(MS, -1)).as("no lease known").isFalse();
        assertThat(HoldClock.pausesUntilLeaseEnd(MS, Long.MAX_VALUE)).as("a lease without end").isFalse();
        assertThat(HoldClock.pausesUntilLeaseEnd(HoldClock.pollPauseNanos(SMALLEST, 1_000, 300), 300)).isTrue();
        assertThat(HoldClock.pausesUntilLeaseEnd(HoldClock.pollPauseNanos(SMALLEST, 1_000, 5_000), 5_000)).isFalse();
    }

    @Test
    void aFixedLeaseStillCountsForASetOfNamesWhileATenthOfItIsLeftARenewedOneUntilItsDeadline() {
        // a fixed lease cannot be renewed: with less than a tenth left it would end while the other names are taken
        long now = clock.nanoTime();
        long lease = 1_000;
        Hold fixed = EngineFixtures.hold(runtime, new NameState(), "f", "t", 1, lease, false, now + 100 * MS, false,
                now + EngineFixtures.HOUR_NANOS);
        assertThat(fixed.stillCounts(now)).as("exactly a tenth left").isTrue();
        assertThat(fixed.stillCounts(now + 1)).as("a nanosecond less").isFalse();

        Hold renewed = EngineFixtures.hold(runtime, new NameState(), "r", "t", 1, lease, true, now + 100 * MS, false,
                now + EngineFixtures.HOUR_NANOS);
        assertThat(renewed.stillCounts(now + 100 * MS - 1)).as("renewed: until its deadline").isTrue();
        assertThat(renewed.stillCounts(now + 100 * MS)).as("at its deadline").isFalse();

        Hold claim = EngineFixtures.hold(runtime, new NameState(), "c", "t", 1, lease, false, now + 100 * MS, true,
                now);
        assertThat(claim.stillCounts(now + 50 * MS)).as("a hand-off's claim is confirmed: it counts").isTrue();
    }

    @Test
    void aStreakOfTransientTryFailuresIsReportedOnceASecondOnAndAnAnswerEndsIt() throws Exception {
        FaultyStore store = new FaultyStore();
        List<RuntimeException> reported = new ArrayList<>();
        TryFailures failures = new TryFailures("n", FaultyStore::classify, runtime, false, reported::add);
        RuntimeException inDoubt = new FaultyStore.Failed("tryAcquire");

        assertThat(failures.classified(inDoubt, Long.MAX_VALUE)).isSameAs(TryFailures.Restart.INSTANCE);
        clock.advance(TransientRetries.PERSISTENT_NANOS);
        failures.classified(inDoubt, Long.MAX_VALUE);
        assertThat(reported).containsExactly(inDoubt);

        TryFailures answered = new TryFailures("n", FaultyStore::classify, runtime, false, reported::add);
        answered.classified(inDoubt, Long.MAX_VALUE);
        clock.advance(TransientRetries.PERSISTENT_NANOS);
        answered.answered(dev.distlock.core.spi.AcquireResult.busy(1_000, 0));
        answered.classified(inDoubt, Long.MAX_VALUE);
        assertThat(reported).as("the answer began a new streak").hasSize(1);
    }

    @Test
    void aLeaseReadOfZeroIsALeaseEndingNowAndANegativeOneIsALoss() {
        // the store answers a negative lease only when the token no longer holds the name
        FaultyStore store = new FaultyStore();
        try (EngineFixtures.Engine engine = EngineFixtures.engine(store)) {
            Hold hold = engine.acquired("z", "t", 30_000);

            store.remainingLeaseAnswer = 0L;
            assertThat(engine.remainingLease(hold)).isEqualTo(Duration.ZERO);
            assertThat(hold.isActive()).as("not lost").isTrue();
            assertThat(engine.heard.kinds).isEmpty();

            store.remainingLeaseAnswer = -2L;
            assertThat(engine.remainingLease(hold)).isEqualTo(Duration.ZERO);
            assertThat(hold.isActive()).isFalse();
            assertThat(engine.heard.kinds).containsExactly("lost");
        }
    }
}
