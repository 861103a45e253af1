package dev.distlock.core.support;

import static dev.distlock.core.engine.EngineFixtures.await;
import static dev.distlock.core.engine.EngineFixtures.awaitFailure;
import static dev.distlock.core.engine.EngineFixtures.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Acquisitions end to end on a store in memory that can fail chosen commands: a single try, a wait handed the lock by
 * a release, a wait that runs out, retries with new tokens, interrupts, cancellation and the registry's close. Two
 * registries on one store stand for two processes. Every wait is bounded ({@link EngineFixtures#BOUND_SECONDS}).
 */
@BoundedTest
class AcquisitionTest {

    private final FaultyStore store = new FaultyStore();
    /** Polls rarely: a waiter that gets the lock in time got it through the hand-off, not a poll. */
    private final EngineFixtures.TestRegistry holder = EngineFixtures.registry(store,
            EngineFixtures.settings().maxPollInterval(Duration.ofSeconds(30)));
    private final EngineFixtures.TestRegistry waiter = EngineFixtures.registry(store,
            EngineFixtures.settings().maxPollInterval(Duration.ofSeconds(30)));

    @AfterEach
    void close() {
        Thread.interrupted();
        holder.close();
        waiter.close();
    }

    private CompletableFuture<Boolean> onAnotherThread(java.util.concurrent.Callable<Boolean> call) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        Thread thread = new Thread(() -> {
            try {
                done.complete(call.call());
            } catch (Throwable failure) {
                done.completeExceptionally(failure);
            }
        });
        thread.setDaemon(true);
        thread.start();
        return done;
    }

    @Test
    void aSingleTryOnAHeldNameFailsAtOnceWithoutQueueingAndLeavesTheGateFree() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();

        assertThat(waiter.obtain("n").tryLock()).isFalse();
        assertThat(await(waiter.obtain("n").tryLockAsync(Duration.ZERO), "a single async try")).isNull();

        assertThat(store.memory.waitersQueued("n")).isZero();
        held.unlock();
        assertThat(waiter.obtain("n").tryLock()).as("the gate was given back").isTrue();
        assertThat(waiter.namesInUse()).isEqualTo(1);
    }

    @Test
    void aWaiterIsHandedTheLockByTheReleaseWithoutAskingAgain() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        long heldFence = held.fencingToken();
        CompletableFuture<DetachedLock> waiting = waiter.obtain("n").tryLockAsync(Duration.ofSeconds(30))
                .toCompletableFuture();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");
        long triesBefore = store.count("tryAcquire");

        held.unlock();

        DetachedLock handedOver = await(waiting, "the hand-off");
        assertThat(handedOver.fencingToken()).isGreaterThan(heldFence);
        assertThat(handedOver.isHeld()).isTrue();
        assertThat(store.count("tryAcquire")).as("the notice is trusted: no try after it").isEqualTo(triesBefore);
        await(handedOver.unlockAsync(), "the release");
        assertThat(store.isLocked("n")).isFalse();
    }

    @Test
    void aBlockingWaiterIsHandedTheLockByTheRelease() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        FencedLock wanted = waiter.obtain("n");
        CompletableFuture<Boolean> waiting = onAnotherThread(() -> {
            boolean got = wanted.tryLock(Duration.ofSeconds(30));
            if (got) {
                wanted.unlock();
            }
            return got;
        });
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");

        held.unlock();

        assertThat(await(waiting, "the hand-off")).isTrue();
    }

    @Test
    void aWaitThatRunsOutEndsWithoutTheLockAndLeavesTheQueue() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        long start = System.nanoTime();

        assertThat(waiter.obtain("n").tryLock(Duration.ofMillis(150))).isFalse();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(150));
        assertThat(store.memory.waitersQueued("n")).isZero();
        assertThat(await(waiter.obtain("n").tryLockAsync(Duration.ofMillis(100)), "an async wait")).isNull();
        assertThat(store.memory.waitersQueued("n")).isZero();
        assertThat(waiter.namesInUse()).isZero();
    }

    @Test
    void aTryWhoseReplyWasLostIsAbandonedAndTriedAgainWithANewToken() throws Exception {
        store.failTries.set(2);
        FencedLock lock = waiter.obtain("n");

        assertThat(lock.tryLock(Duration.ofSeconds(30))).isTrue();

        var tokens = store.triedTokens("n");
        assertThat(tokens).hasSize(3);
        assertThat(store.memory.inspect("n").ownerToken()).isEqualTo(tokens.get(2));
        awaitTrue(() -> store.sent.contains("abandon n " + tokens.get(0)), "the first token's clean-up");
        lock.unlock();
    }

    @Test
    void aTryWhoseReplyWasLostEndsASingleTryAsAnErrorNamingTheLock() throws Exception {
        store.failTries.set(1);
        FencedLock lock = waiter.obtain("n");

        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class).hasMessageContaining("'n'");

        // the try took the lock before its reply was lost: the clean-up gives it back
        awaitTrue(() -> !store.isLocked("n"), "the lost try's clean-up");
        assertThat(lock.tryLock()).as("the gate was given back").isTrue();
        lock.unlock();
    }

    @Test
    void aPermanentFailureEndsEvenAnUnlimitedWaitAsAnError() throws Exception {
        store.rejectTries.set(1);
        FencedLock lock = waiter.obtain("n");

        assertThatThrownBy(lock::lock).isInstanceOf(LockBackendException.class).hasMessageContaining("'n'")
                .hasRootCauseMessage("ERR no such script");
        assertThat(store.count("tryAcquire")).isEqualTo(1);
        store.rejectTries.set(1);
        assertThat(awaitFailure(lock.lockAsync(), "an async lock")).isInstanceOf(LockBackendException.class);
    }

    @Test
    void aReplyTooLateToCountIsGivenUpAndANewTokenTries() throws Exception {
        FencedLock warmUp = waiter.obtain("warm-up");
        warmUp.lock();
        warmUp.unlock();
        store.slowTryMillis.set(150); // longer than a 100ms lease leaves a reply
        FencedLock lock = waiter.obtain("n", Lease.fixed(Lease.MIN));

        assertThat(lock.tryLock(Duration.ofSeconds(30))).isTrue();

        var tokens = store.triedTokens("n");
        assertThat(tokens).hasSize(2);
        awaitTrue(() -> store.sent.contains("abandon n " + tokens.get(0)), "the late token's clean-up");
        // not released: on a loaded machine the 100ms lease may be over before an unlock, which is not the point

        store.slowTryMillis.set(150);
        FencedLock once = waiter.obtain("m", Lease.fixed(Lease.MIN));
        assertThat(once.tryLock()).as("a single try with a late reply").isFalse();
        awaitTrue(() -> store.sent.contains("abandon m " + store.triedTokens("m").get(0)), "the late hold's clean-up");
    }

    @Test
    void anInterruptEndsAnInterruptibleWaitAndItLeavesTheQueue() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        FencedLock wanted = waiter.obtain("n");
        CountDownLatch started = new CountDownLatch(1);
        Thread[] thread = new Thread[1];
        CompletableFuture<Boolean> waiting = onAnotherThread(() -> {
            thread[0] = Thread.currentThread();
            started.countDown();
            wanted.lockInterruptibly();
            return true;
        });
        assertThat(started.await(EngineFixtures.BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");

        thread[0].interrupt();

        assertThat(awaitFailure(waiting, "the interrupted wait")).isInstanceOf(InterruptedException.class)
                .hasMessageContaining("'n'");
        awaitTrue(() -> store.memory.waitersQueued("n") == 0, "the waiter left the queue");
        held.unlock();
    }

    @Test
    void anUninterruptibleWaitGoesOnThroughAnInterruptAndKeepsItForTheCaller() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        FencedLock wanted = waiter.obtain("n");
        CountDownLatch started = new CountDownLatch(1);
        Thread[] thread = new Thread[1];
        CompletableFuture<Boolean> waiting = onAnotherThread(() -> {
            thread[0] = Thread.currentThread();
            started.countDown();
            wanted.lock();
            boolean interrupted = Thread.interrupted();
            wanted.unlock();
            return interrupted;
        });
        assertThat(started.await(EngineFixtures.BOUND_SECONDS, TimeUnit.SECONDS)).isTrue();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");
        thread[0].interrupt();
        awaitTrue(() -> !thread[0].isInterrupted(), "the wait took the interrupt");

        held.unlock();

        assertThat(await(waiting, "the uninterruptible wait")).as("the interrupt is set again").isTrue();
    }

    @Test
    void aCancelledAsyncWaitLeavesTheQueueAndNeverHoldsTheLock() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        CompletableFuture<DetachedLock> waiting = waiter.obtain("n").lockAsync().toCompletableFuture();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");

        waiting.cancel(false);

        awaitTrue(() -> store.memory.waitersQueued("n") == 0, "the cancelled waiter left the queue");
        held.unlock();
        assertThat(store.isLocked("n")).isFalse();
        awaitTrue(() -> waiter.namesInUse() == 0, "the cancelled call let go of the name");
    }

    @Test
    void aClosingRegistryEndsItsWaitingCallsAndTheyLeaveTheQueue() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        CompletableFuture<DetachedLock> waiting = waiter.obtain("n").lockAsync().toCompletableFuture();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");

        waiter.close();

        assertThat(awaitFailure(waiting, "the waiting call")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
        assertThat(store.memory.waitersQueued("n")).isZero();
        assertThatThrownBy(() -> waiter.obtain("m").tryLock()).isInstanceOf(IllegalStateException.class);
        held.unlock();
    }

    @Test
    void callsOfOneRegistryWaitForEachOtherLocallyAndGoInArrivalOrder() throws Exception {
        FencedLock lock = waiter.obtain("n");
        DetachedLock first = await(lock.lockAsync(), "the first lock");
        CompletableFuture<DetachedLock> second = lock.lockAsync().toCompletableFuture();
        CompletableFuture<DetachedLock> third = lock.lockAsync().toCompletableFuture();
        long tries = store.count("tryAcquire");

        assertThat(second).isNotDone();
        assertThat(store.memory.waitersQueued("n")).as("local waiters stay at the gate").isZero();

        await(first.unlockAsync(), "the first release");
        DetachedLock secondHold = await(second, "the second lock");
        assertThat(third).isNotDone();
        assertThat(secondHold.fencingToken()).isGreaterThan(first.fencingToken());
        await(secondHold.unlockAsync(), "the second release");
        await(await(third, "the third lock").unlockAsync(), "the third release");
        assertThat(store.count("tryAcquire")).as("one try each").isEqualTo(tries + 2);
    }

    @Test
    void anAsyncReleaseThatFindsAnotherOwnerFailsAndAReleaseOfALostHoldToo() throws Exception {
        DetachedLock held = await(waiter.obtain("n").lockAsync(), "the lock");
        store.memory.overwrite("n", "outsider");

        assertThat(awaitFailure(held.unlockAsync(), "the release")).isInstanceOf(LockLostException.class);
        assertThat(store.memory.inspect("n").ownerToken()).isEqualTo("outsider");

        FencedLock blocking = waiter.obtain("m");
        blocking.lock();
        store.memory.overwrite("m", "outsider");
        assertThatThrownBy(blocking::unlock).isInstanceOf(LockLostException.class);
        assertThat(blocking.isHeldByCurrentThread()).isFalse();
    }

    @Test
    void aRenewalThatFindsTheTokenGoneLosesTheHoldAtOnce() throws Exception {
        CountDownLatch lost = new CountDownLatch(1);
        try (EngineFixtures.TestRegistry registry = EngineFixtures.registry(store, EngineFixtures.settings()
                .listener(new LockListener() {
                    @Override
                    public void onLost(LockEvent event) {
                        lost.countDown();
                    }
                }))) {
            // renewed a second after it is taken, its deadline three seconds after
            FencedLock lock = registry.obtain("renewed", Lease.renewed(Duration.ofSeconds(3)));
            lock.lock();

            store.memory.delete("renewed");

            assertThat(lost.await(EngineFixtures.BOUND_SECONDS, TimeUnit.SECONDS)).as("the loss heard").isTrue();
            assertThat(lock.isHeldByCurrentThread()).isFalse();
            assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class)
                    .hasMessageContaining("renewal found");
        }
    }

    @Test
    void aNoticeNotTrustedIsConfirmedByOneMoreTry() throws Exception {
        store.noticesTrusted = false;
        FencedLock held = holder.obtain("n");
        held.lock();
        CompletableFuture<DetachedLock> waiting = waiter.obtain("n").tryLockAsync(Duration.ofSeconds(30))
                .toCompletableFuture();
        awaitTrue(() -> store.memory.waitersQueued("n") == 1, "the waiter queued in the store");
        long triesBefore = store.count("tryAcquire");

        held.unlock();

        DetachedLock handedOver = await(waiting, "the hand-off");
        assertThat(store.count("tryAcquire")).as("the store confirmed the notice").isEqualTo(triesBefore + 1);
        await(handedOver.unlockAsync(), "the release");
    }

    @Test
    void aWaiterThatFoundTheNameHeldBeforeNoticesWereHeardAsksAgainOnceTheyAre() throws Exception {
        store.listening = new CompletableFuture<>();
        FencedLock held = holder.obtain("n");
        held.lock();
        CompletableFuture<DetachedLock> waiting = waiter.obtain("n").tryLockAsync(Duration.ofSeconds(30))
                .toCompletableFuture();
        awaitTrue(() -> store.listens.get() == 1, "the waiter asked to hear notices after its first try");
        assertThat(store.count("tryAcquire")).as("the holder's and the waiter's first try").isEqualTo(2);

        store.listening.complete(null);

        awaitTrue(() -> store.count("tryAcquire") == 3, "the waiter's second try, once notices are heard");
        held.unlock();
        await(await(waiting, "the hand-off").unlockAsync(), "the release");
    }

    @Test
    void aCallWaitingAtTheLocalGateEndsWhenItsWaitRunsOutAndLeavesTheGate() throws Exception {
        FencedLock lock = waiter.obtain("n");
        DetachedLock first = await(lock.lockAsync(), "the first lock");
        long start = System.nanoTime();

        assertThat(await(lock.tryLockAsync(Duration.ofMillis(100)), "the wait at the gate")).isNull();

        assertThat(System.nanoTime() - start).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(100));
        CompletableFuture<DetachedLock> next = lock.tryLockAsync(Duration.ofSeconds(30)).toCompletableFuture();
        await(first.unlockAsync(), "the release");
        await(await(next, "the next lock, not given to the call that left").unlockAsync(), "its release");
    }

    @Test
    void aBlockingCallWaitingAtTheLocalGateEndsWhenItsWaitRunsOut() throws Exception {
        FencedLock lock = waiter.obtain("n");
        DetachedLock first = await(lock.lockAsync(), "the first lock");

        assertThat(await(onAnotherThread(() -> lock.tryLock(Duration.ofMillis(100))), "the wait at the gate"))
                .isFalse();

        await(first.unlockAsync(), "the release");
        assertThat(waiter.namesInUse()).isZero();
    }

    @Test
    void aSingleTryOnAClosedRegistryFails() {
        FencedLock lock = waiter.obtain("n");
        waiter.close();

        assertThatThrownBy(lock::tryLock).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        assertThat(store.count("tryAcquire")).isZero();
    }
}
