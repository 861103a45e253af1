package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * What a waiting call leaves behind when it ends, on a {@link VirtualRuntime} (nothing runs, and no time passes,
 * unless the test says): nothing closing the registry must wait for, no token in the store (abandoned at once, and
 * by the clean-up if that fails), no deadline on the registry's timer, and the name's local gate given on to the next
 * call.
 */
@BoundedTest
class WaitingCallsLeaveNothingBehindTest extends OnVirtualClock {

    @Test
    void aRegistryClosesAtOnceAfterItsWaitersEndedWithTheLockOrWithout() {
        // closing waits (up to 5 s) for the calls still waiting to withdraw: the ones that ended are not among them
        long fence = heldByOther("handed");
        heldByOther("kept");
        CompletableFuture<DetachedLock> handed = tryLock("handed", Duration.ofSeconds(10));
        CompletableFuture<DetachedLock> timedOut = tryLock("kept", Duration.ofMillis(100));
        clock.runPending();
        store.release("handed", "other", fence);
        clock.advance(100 * MS);
        assertThat(handed).isCompleted();
        assertThat(handed.join()).isNotNull();
        assertThat(timedOut).isCompletedWithValue(null);

        CompletableFuture<Void> closed = registry.closeAsync().toCompletableFuture();
        clock.runPending(); // no time passes: closing has no waiter to wait for

        assertThat(closed).as("closed without waiting for a waiter").isCompleted();
        assertThat(store.isLocked("handed")).as("the hold was given back").isFalse();
    }

    @Test
    void aWaiterWithdrawnByItsClosingRegistryLeavesTheStoreWithOneAbandon() {
        // the abandon left the queue and whatever was handed over: closing the attempt sends nothing more
        heldByOther("n");
        store.duringNextTry.set(registry::closeAsync); // the registry closes while the waiter's try is on its way

        assertThatThrownBy(() -> registry.obtain("n").tryLock(Duration.ofSeconds(10)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("registry was closed");

        assertThat(store.count("abandon n ")).isEqualTo(1);
        assertThat(store.memory.waitersQueued("n")).isZero();
    }

    @Test
    void aCancelledWaiterAbandonsItsTokenAtOnceAndAFailedAbandonGoesStraightToTheCleanup() {
        // the store answers, so the abandon goes out now, ahead of the next release; when it fails the clean-up sends
        // it again at once, and once more a second later (the failed one may still run)
        heldByOther("n");
        CompletableFuture<DetachedLock> waiting = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        assertThat(store.memory.waitersQueued("n")).isEqualTo(1);
        store.failAbandons.set(1);

        waiting.cancel(false);
        clock.runPending(); // no time passes

        assertThat(store.count("abandon n ")).as("sent, failed, sent again by the clean-up").isEqualTo(2);
        assertThat(store.memory.waitersQueued("n")).isZero();
        clock.advance(999 * MS);
        assertThat(store.count("abandon n ")).isEqualTo(2);
        clock.advance(MS);
        assertThat(store.count("abandon n ")).as("the trailing clean-up, a second after").isEqualTo(3);
    }

    @Test
    void aWaiterCancelledWhileItsTryIsOnItsWayHasItsTokenCleanedUpOnceMoreASecondLater() {
        // the try may still run after the call ended (on another connection): a second abandon follows the first
        heldByOther("n");
        AtomicReference<CompletableFuture<DetachedLock>> call = new AtomicReference<>();
        store.duringNextTry.set(() -> call.get().cancel(false));
        call.set(tryLock("n", Duration.ofSeconds(10)));

        clock.runPending();
        assertThat(store.count("abandon n ")).isEqualTo(1);
        assertThat(store.memory.waitersQueued("n")).isZero();
        clock.advance(1_000 * MS);

        assertThat(store.count("abandon n ")).as("and once more, a second after its answer").isEqualTo(2);
    }

    @Test
    void aCallThatEndsTakesItsDeadlineOffTheRegistrysTimer() {
        // a wait of an hour that ended must not keep a task (and the call) on the timer for the rest of the hour
        CompletableFuture<DetachedLock> first = tryLock("n", Duration.ZERO);
        clock.runPending();
        DetachedLock held = first.join();
        int before = clock.pendingTimers();
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofHours(1));
        clock.runPending();
        assertThat(clock.pendingTimers()).as("the second waits at the gate, its deadline armed").isEqualTo(before + 1);

        second.cancel(false);
        clock.runPending();

        assertThat(clock.pendingTimers()).isEqualTo(before);
        held.unlockAsync();
        clock.runPending();
    }

    @Test
    void aWaiterWhoseWaitRunsOutLetsTheNextCallAtTheGateGoToTheStore() {
        heldByOther("n");
        CompletableFuture<DetachedLock> first = tryLock("n", Duration.ofMillis(100));
        clock.runPending();
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        assertThat(store.triedTokens("n")).as("other's and the first call's: the second waits at the gate").hasSize(2);

        clock.advance(100 * MS);

        assertThat(first).isCompletedWithValue(null);
        assertThat(store.triedTokens("n")).as("the second call's try went out as the first ended").hasSize(3);
        assertThat(second).isNotDone();
    }
}
