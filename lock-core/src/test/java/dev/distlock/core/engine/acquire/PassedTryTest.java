package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.WaitEnd;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;

/**
 * The first try a releasing hold sends for the next call waiting at its name's local gate, in the same store call as
 * its release (a store that passes on), on a {@link VirtualRuntime}: the next call takes up its answer instead of
 * sending its own try; a call that no longer wants it gives up what it took.
 */
@BoundedTest
class PassedTryTest extends OnVirtualClock {

    PassedTryTest() {
        super(new FaultyStore(true), settings -> settings);
    }

    /** A hold of {@code name} taken by this registry: the gate is its own until it is released. */
    private DetachedLock held(String name) {
        CompletableFuture<DetachedLock> first = tryLock(name, Duration.ZERO);
        clock.runPending();
        assertThat(first).isCompleted();
        return first.join();
    }

    /** Checks that {@code call} took the lock ({@code why}), then releases it. */
    private void releaseTaken(CompletableFuture<DetachedLock> call, String why) {
        assertThat(call).as(why).isCompleted();
        assertThat(call.join()).isNotNull();
        call.join().unlockAsync();
        clock.runPending();
    }

    @Test
    void theNextCallAtTheGateGetsTheLockWithTheTrySentWithItsPredecessorsRelease() {
        DetachedLock first = held("n");
        CompletableFuture<DetachedLock> second = registry.obtain("n", Lease.fixed(Duration.ofSeconds(10)), "next")
                .tryLockAsync(Duration.ofSeconds(10)).toCompletableFuture();
        clock.runPending();
        assertThat(second).as("waits at the gate").isNotDone();

        first.unlockAsync();
        clock.runPending();

        assertThat(second).isCompleted();
        assertThat(second.join()).isNotNull();
        assertThat(store.count("passOn n ")).isEqualTo(1);
        assertThat(store.count("tryAcquire n ")).as("the first call's own try only").isEqualTo(1);
        assertThat(registry.inspect("n").remainingLease()).as("the passed try asked for the next call's lease")
                .isGreaterThan(Duration.ofSeconds(9)).isLessThanOrEqualTo(Duration.ofSeconds(10));

        second.join().unlockAsync();
        clock.runPending();
        assertThat(store.isLocked("n")).as("the hold owned what the passed try took").isFalse();
    }

    @Test
    void aCallThatTookUpItsPassedTryNoLongerHoldsUpTheRegistrysClose() {
        DetachedLock first = held("n");
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        first.unlockAsync();
        clock.runPending();
        assertThat(second).isCompleted();
        second.join().unlockAsync();
        clock.runPending();

        CompletableFuture<Void> closed = registry.closeAsync().toCompletableFuture();
        clock.runPending();

        assertThat(closed).as("closed at once, nobody left among the waiters").isCompleted();
    }

    @Test
    void aSingleTryPassedOnToABusyLockLeavesNoEntryInTheStoresQueue() {
        // a call that does not wait does not queue, whoever sends its try
        DetachedLock first = held("n");
        store.tryAcquire("n", "x", 30_000, true, 1_000); // another process waits in the store's queue
        CompletableFuture<DetachedLock> single = tryLock("n", Duration.ZERO); // at the gate; the clock stands still
        clock.runPending();
        assertThat(single).isNotDone();

        first.unlockAsync();
        clock.runPending();

        assertThat(single).isCompletedWithValue(null);
        assertThat(store.memory.inspect("n").ownerToken()).as("handed to the process in the queue").isEqualTo("x");
        assertThat(store.memory.waitersQueued("n")).isZero();
    }

    @Test
    void aWaiterWhosePassedTryFoundTheLockBusyQueuesAndWithdrawsWhenItsRegistryCloses() {
        DetachedLock first = held("n");
        store.tryAcquire("n", "x", 30_000, true, 1_000);
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        first.unlockAsync();
        clock.runPending();
        assertThat(second).isNotDone();
        assertThat(store.memory.waitersQueued("n")).as("queued behind the new holder").isEqualTo(1);

        registry.closeAsync();
        clock.runPending();

        assertThat(second).isCompletedExceptionally();
        assertThat(store.memory.waitersQueued("n")).as("withdrew from the queue").isZero();
    }

    @Test
    void aWaiterWhosePassedTryFoundTheLockBusyHoldsItsPlaceInTheStoresQueueFromThatTryOn() {
        // the try sent with the release queued the waiter: a process that queues after it comes after it
        DetachedLock first = held("n");
        store.tryAcquire("n", "x", 30_000, true, 1_000);
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        store.duringNextPassOn.set(() -> store.tryAcquire("n", "y", 30_000, true, 1_000));

        first.unlockAsync();
        clock.runPending();
        assertThat(second).isNotDone();
        long fence = store.memory.inspect("n").fencingToken();
        store.release("n", "x", fence);
        clock.runPending();

        releaseTaken(second, "handed the lock before the process that queued after its try");
    }

    @Test
    void aCallCancelledAsItsPredecessorHandsItTheGateGivesUpWhatItsPassedTryTook() {
        DetachedLock first = held("n");
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();

        first.unlockAsync();
        second.cancel(false); // the owner leaves while the release carries its try
        clock.runPending();

        assertThat(store.count("passOn n ")).isEqualTo(1);
        assertThat(store.isLocked("n")).as("the passed try's token was abandoned once answered").isFalse();
        assertThat(store.count("abandon n ")).isEqualTo(1);
        clock.advance(1_000 * MS);
        assertThat(store.count("abandon n ")).as("its answer came: nothing can still run, no trailing clean-up")
                .isEqualTo(1);

        CompletableFuture<DetachedLock> third = tryLock("n", Duration.ZERO);
        clock.runPending();
        releaseTaken(third, "the gate went on");
    }

    @Test
    void aCallHandedTheGateJustAsItsWaitRunsOutTakesUpTheTrySentForIt() {
        // once the release took the call out of the gate's queue it can no longer leave it: its deadline, passing
        // while the release is on its way, changes nothing, and the call takes up the answer
        DetachedLock first = held("n");
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofMillis(100));
        clock.runPending();
        store.duringNextPassOn.set(() -> clock.advance(100 * MS)); // the deadline passes meanwhile

        first.unlockAsync();
        clock.runPending();

        assertThat(second).isCompleted();
        assertThat(second.join()).isNotNull();
        assertThat(second.join().waitEnd()).isEqualTo(WaitEnd.LOCAL_HAND_OFF);
        assertThat(store.count("abandon n ")).isZero();
        second.join().unlockAsync();
        clock.runPending();
    }

    @Test
    void aCallHandedTheGateAsItsRegistryClosesFailsAsClosedAndGivesUpWhatItsPassedTryTook() {
        // closing waits for a call waiting on another name to withdraw, so the registry's threads still run when
        // the call enters, finds the registry closed and leaves the lock its passed try took
        DetachedLock first = held("n");
        store.tryAcquire("w", "other", 30_000, false, 1_000);
        CompletableFuture<DetachedLock> elsewhere = tryLock("w", Duration.ofSeconds(10));
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        store.duringNextPassOn.set(registry::closeAsync); // closes while the release carries the try

        first.unlockAsync();
        clock.runPending();

        assertThat(second).isCompletedExceptionally();
        assertThatThrownBy(second::join).cause().isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("registry is closed");
        assertThat(store.memory.inspect("n").ownerToken()).as("the passed try's token was abandoned").isNull();
        assertThat(elsewhere).isCompletedExceptionally();
    }
    @Test
    void aRegistryClosingWhileAReleaseCarriesTheNextCallsTryGivesBackWhatTheTryTookBeforeItsStoreCloses() {
        // nothing else keeps the registry open: the close waits for the call the release was handing the gate to
        DetachedLock first = held("n");
        CompletableFuture<DetachedLock> second = tryLock("n", Duration.ofSeconds(10));
        clock.runPending();
        CompletableFuture<CompletionStage<Void>> closing = new CompletableFuture<>();
        store.duringNextPassOn.set(() -> closing.complete(registry.closeAsync()));

        first.unlockAsync();
        clock.runPending();

        assertThat(closing.join().toCompletableFuture()).as("closed").isCompleted();
        assertThatThrownBy(second::join).cause().isExactlyInstanceOf(IllegalStateException.class)
                .hasMessageContaining("registry is closed");
        assertThat(store.count("abandon n ")).as("the passed try's token abandoned").isEqualTo(1);
        assertThat(store.memory.inspect("n").ownerToken()).as("the lock free at once, not when its lease ends")
                .isNull();
    }
}
