package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every registry's non-blocking API must do ({@link FencedLock#tryLockAsync}, {@link FencedLock#lockAsync}
 * and the {@link DetachedLock} they complete with): the same exclusion, order and clean-up as the blocking one,
 * with a hold that belongs to no thread.
 */
public abstract class AsyncLockContract extends RegistryContractSupport {

    @Test
    void anAsyncHoldExcludesOtherProcessesUntilItsAsyncUnlock() throws Exception {
        FencedLock mine = registry().obtain("async");
        FencedLock theirs = registry().obtain("async");

        DetachedLock held = await(mine.tryLockAsync(Duration.ZERO));

        assertThat(held).isNotNull();
        assertThat(held.isHeld()).isTrue();
        assertThat(held.fencingToken()).isPositive();
        assertThat(acquiresInOtherThread(theirs, Duration.ZERO)).isFalse();
        assertThat(mine.isHeldByCurrentThread()).as("no thread owns an async hold").isFalse();
        await(held.unlockAsync());
        assertThat(held.isHeld()).isFalse();
        assertThat(acquiresInOtherThread(theirs, Duration.ZERO)).isTrue();
        assertThatThrownBy(() -> await(held.unlockAsync())).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void asyncWaitersOfOneRegistryAreHandedTheLockInArrivalOrder() throws Exception {
        FencedLock holder = registry().obtain("async-queue");
        FencedLock waiters = registry().obtain("async-queue");
        holder.lock();
        long holderFence = holder.fencingToken();

        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Long> fences = new CopyOnWriteArrayList<>();
        List<CompletableFuture<Void>> done = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            int arrival = i;
            done.add(waiters.lockAsync().thenCompose(held -> {
                order.add(arrival);
                fences.add(held.fencingToken());
                return held.unlockAsync();
            }).toCompletableFuture());
        }
        holder.unlock();

        CompletableFuture.allOf(done.toArray(CompletableFuture[]::new)).get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        assertThat(order).hasSize(20).isSorted();
        assertThat(fences).isSorted().doesNotHaveDuplicates().allSatisfy(fence -> assertThat(fence)
                .isGreaterThan(holderFence));
        assertThat(holder.isLocked()).isFalse();
    }

    @Test
    void anAsyncTryCompletesWithNullWhenTheWaitRunsOutAndLeavesNothingHeld() throws Exception {
        FencedLock holder = registry().obtain("async-busy");
        FencedLock waiter = registry().obtain("async-busy");
        holder.lock();

        long start = System.nanoTime();
        DetachedLock held = await(waiter.tryLockAsync(Duration.ofMillis(300)));

        assertThat(held).isNull();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        holder.unlock();
        assertThat(holder.isLocked()).as("not handed to the waiter that gave up").isFalse();
    }

    @Test
    void cancellingAnAsyncAcquisitionWithdrawsItFromTheQueue() throws Exception {
        FencedLock holder = registry().obtain("async-cancel");
        LockRegistry waiting = registry();
        holder.lock();
        CompletableFuture<DetachedLock> pending = waiting.obtain("async-cancel").lockAsync().toCompletableFuture();

        assertThat(pending.cancel(true)).isTrue();
        holder.unlock();

        // whatever the cancelled call had reached (the queue, or even a hold) is given up, not kept for its lease
        assertThat(acquiresInOtherThread(registry().obtain("async-cancel"), PATIENCE)).isTrue();
        awaitUntil(() -> waiting.heldLocks().isEmpty());
        assertThat(pending).isCancelled();
    }

    @Test
    void anAsyncHoldExtendsAndReadsItsLeaseWithoutBlocking() throws Exception {
        FencedLock lock = registry().obtain("async-lease", Lease.fixed(Duration.ofSeconds(5)));
        DetachedLock held = await(lock.lockAsync());

        await(held.extendAsync(Duration.ofMinutes(1)));

        assertThat(await(held.remainingLeaseAsync())).isGreaterThan(Duration.ofSeconds(30));
        await(held.unlockAsync());
        assertThatThrownBy(() -> await(held.remainingLeaseAsync())).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void closingARegistryEndsItsPendingAsyncAcquisitionsWithoutHandingThemTheLock() throws Exception {
        FencedLock holder = registry().obtain("async-close");
        LockRegistry closing = registry();
        holder.lock();
        CompletableFuture<DetachedLock> pending = closing.obtain("async-close").lockAsync().toCompletableFuture();
        CompletableFuture<DetachedLock> atTheGate = closing.obtain("async-close").lockAsync().toCompletableFuture();

        ((AutoCloseable) closing).close();

        assertThatThrownBy(() -> await(pending)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> await(atTheGate)).isInstanceOf(IllegalStateException.class);
        holder.unlock();
        assertThat(holder.isLocked()).isFalse();
    }

    /** The stage's value, waiting at most {@link #PATIENCE}; what it failed with is rethrown as it is. */
    protected static <T> T await(CompletionStage<T> stage) throws Exception {
        try {
            return stage.toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException failed) {
            if (failed.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw failed;
        }
    }
}
