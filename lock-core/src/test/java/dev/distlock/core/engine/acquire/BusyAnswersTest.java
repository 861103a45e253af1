package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * What a waiting call does with an answer that the lock is busy, on a {@link VirtualRuntime}: before the registry
 * hears hand-off notices it asks again as soon as it does; an answer that came after the wait ends the call at once,
 * the clean-up leaving the queue for it.
 */
@BoundedTest
class BusyAnswersTest extends OnVirtualClock {

    @Test
    void aWaiterThatFoundTheLockBusyBeforeNoticesWereHeardAsksAgainAsSoonAsTheyAre() {
        // a hand-off before the registry hears notices would go unnoticed until the next poll
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        CompletableFuture<Void> heard = new CompletableFuture<>();
        store.listening = heard;
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        assertThat(tries("n")).isEqualTo(1);
        assertThat(store.listens).as("asked to hear notices").hasValue(1);

        heard.complete(null);
        clock.runPending(); // no time passes

        assertThat(tries("n")).as("asked again once notices are heard").isEqualTo(2);
        assertThat(waiting).isNotDone();
    }

    @Test
    void aWaiterThatFoundTheLockBusyBeforeNoticesWereHeardAsksAgainAfterAPollIntervalIfTheyAreNot() {
        store.tryAcquire("n", "other", 60_000, false, 1_000);
        store.listening = new CompletableFuture<>(); // never heard
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofMinutes(1))
                .toCompletableFuture();
        clock.runPending();

        clock.advance(30_000 * MS - 1);
        assertThat(tries("n")).isEqualTo(1);
        clock.advance(1);

        assertThat(tries("n")).as("the poll interval, without jitter").isEqualTo(2);
        assertThat(waiting).isNotDone();
    }

    @Test
    void aBusyAnswerThatCameAfterTheWaitEndsTheCallAtOnceAndTheCleanupLeavesTheQueue() {
        // at most one command after the wait: the answer came after it, so none; the token, queued by the try, is
        // abandoned in the background
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        store.duringNextTry.set(() -> clock.advance(150 * MS));

        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofMillis(100))
                .toCompletableFuture();
        clock.runPending();

        assertThat(waiting).isCompletedWithValue(null);
        assertThat(tries("n")).isEqualTo(1);
        assertThat(store.count("abandon n ")).as("the clean-up's abandon").isEqualTo(1);
        assertThat(store.memory.waitersQueued("n")).isZero();
    }
}
