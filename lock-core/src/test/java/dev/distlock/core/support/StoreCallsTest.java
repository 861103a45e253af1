package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How the engine calls the store for a caller ({@link StoreCalls}) and paces retries ({@link TransientRetries}): the
 * interrupt flag is kept for the caller, a refused command is sent again until a deadline, failures name the lock.
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
    void aRefusedCommandIsSentAgainUntilItRunsAndOtherFailuresAreThrownAtOnce() {
        AtomicInteger sends = new AtomicInteger();
        long hour = TimeUnit.HOURS.toNanos(1);

        String answer = StoreCalls.retriedWhileRefused(store, System.nanoTime() + hour, () -> {
            if (sends.incrementAndGet() < 3) {
                throw new FaultyStore.Refused("x");
            }
            return "ran";
        });
        assertThat(answer).isEqualTo("ran");
        assertThat(sends).hasValue(3);

        sends.set(0);
        assertThatThrownBy(() -> StoreCalls.retriedWhileRefused(store, System.nanoTime() + hour, () -> {
            sends.incrementAndGet();
            throw new FaultyStore.Failed("x");
        })).isInstanceOf(FaultyStore.Failed.class);
        assertThat(sends).hasValue(1);

        sends.set(0);
        assertThatThrownBy(() -> StoreCalls.retriedWhileRefused(store, System.nanoTime() - 1, () -> {
            sends.incrementAndGet();
            throw new FaultyStore.Refused("x");
        })).as("no time left: the refusal stands").isInstanceOf(FaultyStore.Refused.class);
        assertThat(sends).hasValue(1);
    }

    @Test
    void anInterruptBeforeOrDuringTheRetriesOfARefusedCommandIsKeptForTheCaller() {
        Thread.currentThread().interrupt();
        AtomicInteger sends = new AtomicInteger();

        String answer = StoreCalls.retriedWhileRefused(store, System.nanoTime() + TimeUnit.HOURS.toNanos(1), () -> {
            assertThat(Thread.currentThread().isInterrupted()).as("sent without the interrupt").isFalse();
            if (sends.incrementAndGet() < 2) {
                throw new FaultyStore.Refused("x");
            }
            return "ran";
        });

        assertThat(answer).isEqualTo("ran");
        assertThat(Thread.interrupted()).isTrue();
    }

    @Test
    void theRefusedPauseIsAnAcquisitionsPauseCutToWhatIsLeftAndMinusOneOnceNothingIs() {
        long now = System.nanoTime();
        assertThat(StoreCalls.refusedPauseNanos(1, now - 1)).isEqualTo(-1);
        assertThat(StoreCalls.refusedPauseNanos(1, now + TimeUnit.HOURS.toNanos(1))).isBetween(5 * MS, 10 * MS);
        assertThat(StoreCalls.refusedPauseNanos(6, now + TimeUnit.HOURS.toNanos(1))).isBetween(125 * MS, 250 * MS);
        assertThat(StoreCalls.refusedPauseNanos(1, System.nanoTime() + 2 * MS)).as("cut to what is left").isBetween(1L, 2 * MS);
    }

    @Test
    void aRetryPauseDoublesFromTenToTwoHundredFiftyMillisecondsLessUpToHalfAtRandom() {
        for (int i = 0; i < 20; i++) {
            assertThat(TransientRetries.pauseNanos(0)).isBetween(5 * MS, 10 * MS);
            assertThat(TransientRetries.pauseNanos(1)).isBetween(5 * MS, 10 * MS);
            assertThat(TransientRetries.pauseNanos(2)).isBetween(10 * MS, 20 * MS);
            assertThat(TransientRetries.pauseNanos(5)).isBetween(80 * MS, 160 * MS);
            assertThat(TransientRetries.pauseNanos(6)).isBetween(125 * MS, 250 * MS);
            assertThat(TransientRetries.pauseNanos(1_000)).isBetween(125 * MS, 250 * MS);
        }
    }

    @Test
    void retriesGoOnWhileTheWaitLastsEachPauseCutToWhatIsLeftAndTakenOnce() {
        TransientRetries retries = new TransientRetries(failure -> { });

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
    @org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.SECONDS,
            threadMode = org.junit.jupiter.api.Timeout.ThreadMode.SEPARATE_THREAD) // two seconds of it are waits
    void aStreakOfTransientErrorsIsReportedOnceWhenItHasLastedASecondAndAnAnswerEndsIt() throws Exception {
        AtomicInteger reports = new AtomicInteger();
        TransientRetries retries = new TransientRetries(failure -> reports.incrementAndGet());

        retries.failed(new IllegalStateException("1"));
        retries.failed(new IllegalStateException("2"));
        assertThat(reports).as("not before a second").hasValue(0);
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(TransientRetries.PERSISTENT_NANOS) + 20); // time must pass
        retries.failed(new IllegalStateException("3"));
        retries.failed(new IllegalStateException("4"));
        assertThat(reports).hasValue(1);

        TransientRetries answered = new TransientRetries(failure -> reports.incrementAndGet());
        answered.failed(new IllegalStateException("1"));
        Thread.sleep(TimeUnit.NANOSECONDS.toMillis(TransientRetries.PERSISTENT_NANOS) + 20);
        answered.answered();
        answered.failed(new IllegalStateException("a new streak"));
        assertThat(reports).as("an answer ended the streak").hasValue(1);
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

    @Test
    void anUninterruptibleWaitEndsWhenTheStepCompletesOrItsTimeIsUpAndKeepsTheInterrupt() {
        assertThat(StoreCalls.awaitUninterruptibly(CompletableFuture.completedFuture(1), 0)).isTrue();
        assertThat(StoreCalls.awaitUninterruptibly(CompletableFuture.failedFuture(new IllegalStateException()),
                MS)).isTrue();

        Thread.currentThread().interrupt();
        long start = System.nanoTime();
        assertThat(StoreCalls.awaitUninterruptibly(new CompletableFuture<>(), 50 * MS)).isFalse();
        assertThat(System.nanoTime() - start).as("the whole wait, despite the interrupt")
                .isGreaterThanOrEqualTo(50 * MS);
        assertThat(Thread.interrupted()).isTrue();

        CompletableFuture<String> later = new CompletableFuture<>();
        CompletableFuture.delayedExecutor(20, TimeUnit.MILLISECONDS).execute(() -> later.complete("done"));
        assertThat(StoreCalls.awaitUninterruptibly(later, TimeUnit.SECONDS.toNanos(5))).isTrue();
        assertThat(Thread.currentThread().isInterrupted()).isFalse();
    }
}
