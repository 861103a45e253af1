package dev.distlock.core.engine.acquire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/**
 * How an acquisition ends when it does not get the lock, on a {@link VirtualRuntime} (nothing runs unless the test
 * says): a cancelled or withdrawn wait ends at once, not at its next timer, and leaves the store's queue; a single try
 * on a busy name gives the name's local gate back; a closed registry refuses a try.
 */
@BoundedTest
class AcquisitionEndsTest extends OnVirtualClock {

    @Test
    void aCancelledWaitEndsAtOnceAndLeavesTheStoresQueue() {
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();
        assertThat(store.memory.waitersQueued("n")).isEqualTo(1);

        waiting.cancel(false);
        clock.runPending(); // no time passes: no timer may end it

        assertThat(store.memory.waitersQueued("n")).as("left the queue at once").isZero();
    }

    @Test
    void aWaitWithdrawsAtOnceWhenItsRegistryCloses() {
        store.tryAcquire("n", "other", 30_000, false, 1_000);
        CompletableFuture<DetachedLock> waiting = registry.obtain("n").tryLockAsync(Duration.ofSeconds(10))
                .toCompletableFuture();
        clock.runPending();

        registry.closeAsync();
        clock.runPending();

        assertThat(waiting).isCompletedExceptionally();
        assertThatThrownBy(waiting::join).isInstanceOf(CompletionException.class)
                .hasCauseInstanceOf(IllegalStateException.class);
        assertThat(store.memory.waitersQueued("n")).as("left the queue").isZero();
    }

    @Test
    void aSingleTryOnABusyNameGivesItsGateBackForTheNextCall() {
        long fence = store.tryAcquire("n", "other", 30_000, false, 1_000).fencingToken();
        CompletableFuture<DetachedLock> busy = registry.obtain("n").tryLockAsync(Duration.ZERO).toCompletableFuture();
        clock.runPending();
        assertThat(busy).isCompletedWithValue(null);

        store.release("n", "other", fence);
        CompletableFuture<DetachedLock> next = registry.obtain("n").tryLockAsync(Duration.ZERO).toCompletableFuture();
        clock.runPending();

        assertThat(next).as("the next call went to the store, not to a gate left owned").isCompleted();
        assertThat(next.join()).isNotNull();
        next.join().unlock();
        clock.runPending();
    }

    @Test
    void aClosedRegistryRefusesASingleTry() {
        registry.closeAsync();
        clock.runPending();

        assertThatThrownBy(() -> registry.obtain("n").tryLock()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(store.sent).noneMatch(command -> command.startsWith("tryAcquire"));
    }
}
