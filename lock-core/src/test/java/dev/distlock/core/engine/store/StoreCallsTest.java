package dev.distlock.core.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the engine calls the store for a caller ({@link StoreCalls}) and paces retries ({@link TransientRetries}): the
 * interrupt flag is kept for the caller, a refused command's pause is cut to the time left, failures name the lock.
 */
@BoundedTest
class StoreCallsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FaultyStore store = new FaultyStore();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    @Test
    void aCallRunsWithTheInterruptFlagClearedAndSetAgainAfter() {
        Thread.currentThread().interrupt();

        boolean seen = StoreCalls.uninterrupted(() -> Thread.currentThread().isInterrupted());

        assertThat(seen).isFalse();
        assertThat(Thread.interrupted()).isTrue();
        assertThat(StoreCalls.uninterrupted(() -> "x")).isEqualTo("x");
        assertThat(Thread.currentThread().isInterrupted()).as("not set where it was not").isFalse();
    }

    @Test
    void aFailedCallNamesTheLockAndWhatFailed() {
        IllegalStateException cause = new IllegalStateException("connection reset");

        assertThatThrownBy(() -> StoreCalls.call("orders", "check the lock", () -> {
            throw cause;
        })).isInstanceOf(LockBackendException.class).hasMessageContaining("orders")
                .hasMessageContaining("check the lock").hasCause(cause);
        assertThat(StoreCalls.call("orders", "read", () -> 7)).isEqualTo(7);
    }

    @Test
    void theRefusedPauseIsAnAcquisitionsPauseCutToWhatIsLeftAndMinusOneOnceNothingIs() {
        long now = System.nanoTime();
        assertThat(StoreCalls.refusedPauseNanos(EngineFixtures.standalone(), 1, now - 1)).isEqualTo(-1);
        assertThat(StoreCalls.refusedPauseNanos(EngineFixtures.standalone(), 1, now + TimeUnit.HOURS.toNanos(1))).isBetween(5 * MS, 10 * MS);
        assertThat(StoreCalls.refusedPauseNanos(EngineFixtures.standalone(), 6, now + TimeUnit.HOURS.toNanos(1))).isBetween(125 * MS, 250 * MS);
        assertThat(StoreCalls.refusedPauseNanos(EngineFixtures.standalone(), 1, System.nanoTime() + 2 * MS)).as("cut to what is left").isBetween(1L, 2 * MS);
    }

    @Test
    void aRetryPauseDoublesFromTenToTwoHundredFiftyMillisecondsLessUpToHalfAtRandom() {
        for (int i = 0; i < 20; i++) {
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 0)).isBetween(5 * MS, 10 * MS);
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1)).isBetween(5 * MS, 10 * MS);
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 2)).isBetween(10 * MS, 20 * MS);
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 5)).isBetween(80 * MS, 160 * MS);
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 6)).isBetween(125 * MS, 250 * MS);
            assertThat(TransientRetries.pauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1_000)).isBetween(125 * MS, 250 * MS);
        }
    }

    @Test
    void retriesGoOnWhileTheWaitLastsEachPauseCutToWhatIsLeftAndTakenOnce() {
        TransientRetries retries = EngineFixtures.transientRetries(failure -> { });

        assertThat(retries.retryWithin(0)).isFalse();
        assertThat(retries.retryWithin(-1)).isFalse();
        assertThat(retries.takePause()).isZero();

        assertThat(retries.retryWithin(Long.MAX_VALUE)).isTrue();
        assertThat(retries.takePause()).isBetween(5 * MS, 10 * MS);
        assertThat(retries.takePause()).as("taken once").isZero();
        assertThat(retries.retryWithin(Long.MAX_VALUE)).isTrue();
        assertThat(retries.takePause()).as("the second retry's").isBetween(10 * MS, 20 * MS);
        assertThat(retries.retryWithin(3 * MS)).isTrue();
        assertThat(retries.takePause()).isEqualTo(3 * MS);
    }

    @Test
    void aFailureIsUnwrappedFromItsCompletionException() {
        IllegalStateException cause = new IllegalStateException("x");
        assertThat(StoreCalls.unwrapped(new CompletionException(cause))).isSameAs(cause);
        CompletionException bare = new CompletionException("no cause", null);
        assertThat(StoreCalls.unwrapped(bare)).isSameAs(bare);
        assertThat(StoreCalls.unwrapped(cause)).isSameAs(cause);
        assertThat(StoreCalls.unwrapped(null)).isNull();
    }

    @Test
    void anInterruptOfTheCallingThreadIsToldFromAnyOtherFailure() {
        class RedisCommandInterruptedException extends RuntimeException {

            private static final long serialVersionUID = 1L;
        }
        assertThat(StoreCalls.brokenByInterrupt(new InterruptedException())).isTrue();
        assertThat(StoreCalls.brokenByInterrupt(new RuntimeException(new InterruptedException()))).isTrue();
        assertThat(StoreCalls.brokenByInterrupt(new IllegalStateException(new RedisCommandInterruptedException())))
                .isTrue();
        assertThat(StoreCalls.brokenByInterrupt(new IllegalStateException("timeout"))).isFalse();
        assertThat(StoreCalls.brokenByInterrupt(null)).isFalse();
    }

}
