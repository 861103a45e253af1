package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockInfo;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * What happens between a try's send and its answer, and just before it goes out, on a {@link VirtualRuntime}: the
 * store runs a chosen action while the reply is on its way ({@link FaultyStore#duringNextTry}), such as a release
 * that hands the lock over, the clock moving on, or the registry closing.
 */
@BoundedTest
class WhileATryIsOnItsWayTest extends OnVirtualClock {

    WhileATryIsOnItsWayTest() {
        super(new FaultyStore(), settings -> settings.applicationName("waiting-app"));
    }

    @Test
    void aNoticeThatCameWhileTheTryWasOnItsWayEndsTheWaitAsSoonAsTheTryIsAnswered() {
        // the try queued the token and the holder handed it the lock before the busy reply came back: the notice,
        // heard while the try was in flight, wakes the call at once instead of at its next poll
        long fence = store.tryAcquire("n", "other", 30_000, false, 1_000).fencingToken();
        store.duringNextTry.set(() -> store.release("n", "other", fence));

        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending(); // no time passes

        assertThat(waiting).isCompleted();
        assertThat(waiting.join().waitEnd()).isEqualTo(WaitEnd.NOTICE);
        assertThat(tries("n")).as("the trusted notice needs no second try").isEqualTo(1);
        waiting.join().unlockAsync();
        clock.runPending();
    }

    @Test
    void aReplyTooLateToCountThatComesExactlyAtTheEndOfTheWaitEndsItWithoutTheLockAndGivesTheTokenUp() {
        // a lease of 1 s is trusted for 988 ms after the send and must have a tenth (100 ms) left when the reply
        // comes: after 900 ms it has 88 ms. Nothing of the wait is left for a new token, so none tries
        store.duringNextTry.set(() -> clock.advance(900 * MS));

        CompletableFuture<DetachedLock> taken = registry.obtain("n", Lease.fixed(Duration.ofSeconds(1)), "late")
                .tryLockAsync(Duration.ofMillis(900)).toCompletableFuture();
        clock.runPending();

        assertThat(taken).isCompletedWithValue(null);
        assertThat(tries("n")).isEqualTo(1);
        assertThat(store.isLocked("n")).as("the token that took it gave it up").isFalse();
    }

    @Test
    void aCallStartedJustBeforeItsRegistryClosedFailsAsClosedWithoutATry() {
        CompletableFuture<DetachedLock> single = registry.obtain("n").tryLockAsync(Duration.ZERO)
                .toCompletableFuture();
        registry.closeAsync(); // before the call's first step ran
        clock.runPending();

        assertThat(single).isCompletedExceptionally();
        assertThatThrownBy(single::join).isInstanceOf(CompletionException.class)
                .cause().isExactlyInstanceOf(IllegalStateException.class).hasMessageContaining("registry is closed");
        assertThat(tries("n")).isZero();
    }

    @Test
    void anInterruptThatComesWhileABlockingCallPreparesItsTryEndsTheCallBeforeTheTryGoesOut() throws Exception {
        // the blocking caller's thread sends the try: an interrupt pending at that moment counts first
        store.onNextNoticeSubscription.set(() -> Thread.currentThread().interrupt());
        try {
            assertThatThrownBy(() -> registry.obtain("n").tryLock(Duration.ofSeconds(1)))
                    .isInstanceOf(InterruptedException.class);
            assertThat(tries("n")).isZero();
            assertThat(store.isLocked("n")).isFalse();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aCallWaitingInTheStoresQueueIsNamedToOtherProcessesThatInspectTheLock() {
        // from its first wait in the queue on, the registry announces itself, so the queue shows who waits
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        assertThat(waiting).isNotDone();

        VirtualRuntime elsewhere = new VirtualRuntime();
        EngineFixtures.TestRegistry otherProcess = EngineFixtures.registry(store,
                EngineFixtures.settings().runtime(elsewhere).applicationName("inspecting-app"));
        try {
            LockInfo info = otherProcess.inspect("n");
            assertThat(info.queue()).singleElement()
                    .satisfies(waiter -> assertThat(waiter.process()).isNotNull()
                            .extracting(process -> process.application()).isEqualTo("waiting-app"));
        } finally {
            otherProcess.closeAsync();
            elsewhere.runPending();
        }
    }

    @Test
    void aFirstBusyAnswerThatComesExactlyAtTheEndOfTheWaitLeavesTheQueueWithoutWaitingForNoticesToBeHeard() {
        // before the registry hears hand-off notices a waiter asks again once it does; with nothing of the wait left
        // it only leaves the queue
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        store.listening = new CompletableFuture<>(); // notices not heard yet
        store.duringNextTry.set(() -> clock.advance(100 * MS));

        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofMillis(100))
                .toCompletableFuture();
        clock.runPending(); // the clock stands at the end of the wait

        assertThat(waiting).isCompletedWithValue(null);
        assertThat(store.listens).as("no wait for notices").hasValue(0);
        assertThat(store.memory.waitersQueued("n")).as("left the queue").isZero();
    }

    @Test
    void aWaitThatRunsOutAndFindsOnLeavingThatTheLockWasHandedToItSaysItsEndEndedTheWait() {
        // the sleep before the next try lasts until the holder's lease ends (5 s), cut to the wait (100 ms): at the
        // end of the wait the call leaves the queue, and the hold that leaving finds was not the lease end's doing
        long fence = store.tryAcquire("n", "other", 5_000, false, 1_000).fencingToken();
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofMillis(100))
                .toCompletableFuture();
        clock.runPending();
        store.noticesTrusted = false;
        store.beforeNextLeave.set(() -> store.release("n", "other", fence)); // handed over as the call leaves

        clock.advance(100 * MS);

        assertThat(waiting).isCompleted();
        assertThat(waiting.join()).as("leaving kept the lock handed over").isNotNull();
        assertThat(waiting.join().waitEnd()).isEqualTo(WaitEnd.POLL);
        assertThat(tries("n")).isEqualTo(1);
        waiting.join().unlockAsync();
        clock.runPending();
    }
}
