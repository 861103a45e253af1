package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * What every {@link LockRegistry} must do. An implementation's test extends this class and says how to
 * make registries that share one backend (each call stands for another process) and how an outsider
 * deletes or overwrites a lock. It includes the {@link AsyncLockContract non-blocking contract}.
 *
 * <p>Timing: leases and waits are short so the suite is quick, but every assertion is about order and
 * outcome, never about speed; every wait is bounded.
 */
public abstract class LockRegistryContract extends AsyncLockContract {

    // --- exclusion and waiting ---

    @Test
    void aLockHeldByOneProcessCannotBeTakenByAnother() throws Exception {
        FencedLock mine = registry().obtain("exclusive");
        FencedLock theirs = registry().obtain("exclusive");

        assertThat(mine.tryLock(Duration.ZERO)).isTrue();
        assertThat(acquiresInOtherThread(theirs, Duration.ZERO)).isFalse();
        assertThat(theirs.isLocked()).isTrue();

        mine.unlock();
        assertThat(acquiresInOtherThread(theirs, Duration.ZERO)).isTrue();
    }

    @Test
    void threadsOfOneRegistryExcludeEachOther() throws Exception {
        FencedLock lock = registry().obtain("threads");
        lock.lock();
        assertThat(acquiresInOtherThread(lock, Duration.ofMillis(50))).isFalse();
        lock.unlock();
        assertThat(acquiresInOtherThread(lock, Duration.ZERO)).isTrue();
    }

    @Test
    void aTimedTryWaitsAtLeastItsTimeoutThenGivesUpAndReportsIt() throws Exception {
        RecordingListener listener = new RecordingListener();
        registry().obtain("busy").lock();
        FencedLock waiter = registry(listener).obtain("busy");

        long start = System.nanoTime();
        boolean acquired = acquiresInOtherThread(waiter, Duration.ofMillis(300));

        assertThat(acquired).isFalse();
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
        assertThat(listener.events("acquireFailed")).singleElement()
                .satisfies(event -> assertThat(event.error()).isNull());
    }

    @Test
    void aWaiterGetsTheLockWhenTheHolderReleasesIt() throws Exception {
        FencedLock holder = registry().obtain("handoff");
        FencedLock waiter = registry().obtain("handoff");
        holder.lock();

        Background<Long> waiterFence = new Background<>(() -> {
            if (!waiter.tryLock(Duration.ofSeconds(30))) {
                return -1L;
            }
            long fence = waiter.fencingToken();
            waiter.unlock();
            return fence;
        });
        long holderFence = holder.fencingToken();
        holder.unlock();

        assertThat(waiterFence.get()).isGreaterThan(holderFence);
    }

    @Test
    void aZeroWaitMakesExactlyOneTry() throws Exception {
        FencedLock lock = registry().obtain("one-try");
        assertThat(lock.tryLock(Duration.ZERO)).isTrue();
        lock.unlock();
        registry().obtain("one-try").lock();
        assertThat(lock.tryLock(Duration.ZERO)).isFalse();
        assertThat(lock.tryLock()).isFalse();
    }

    @Test
    void executeLockedRunsTheTaskUnderTheLockAndAlwaysReleases() throws Exception {
        LockRegistry registry = registry();
        LockRegistry other = registry();

        String result = registry.executeLocked("template", Duration.ZERO,
                () -> other.obtain("template").tryLock() ? "not exclusive" : "exclusive");
        assertThat(result).isEqualTo("exclusive");
        assertThat(other.obtain("template").isLocked()).isFalse();

        assertThatThrownBy(() -> registry.executeLocked("template", Duration.ZERO, () -> {
            throw new java.io.IOException("task failed");
        })).isInstanceOf(java.io.IOException.class).hasMessage("task failed");
        assertThat(other.obtain("template").isLocked()).isFalse();
    }

    @Test
    void executeLockedDoesNotRunTheTaskWhenTheLockIsBusy() throws Exception {
        registry().obtain("template-busy").lock();
        AtomicBoolean ran = new AtomicBoolean();

        assertThatThrownBy(() -> registry().executeLocked("template-busy", Duration.ofMillis(100), () -> ran.set(true)))
                .isInstanceOf(LockTimeoutException.class)
                .hasMessageContaining("'template-busy'")
                .hasMessageContaining("PT0.1S");
        assertThat(ran).isFalse();
    }

    // --- re-entrancy and ownership ---

    @Test
    void theSameThreadMayAcquireAgainAndOnlyTheLastUnlockReleases() throws Exception {
        FencedLock lock = registry().obtain("reentrant");
        FencedLock other = registry().obtain("reentrant");

        lock.lock();
        assertThat(lock.tryLock(Duration.ZERO)).isTrue();
        assertThat(registry().obtain("reentrant").tryLock()).isFalse();
        assertThat(lock.holdCount()).isEqualTo(2);

        lock.unlock();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(acquiresInOtherThread(other, Duration.ZERO)).isFalse();

        lock.unlock();
        assertThat(lock.holdCount()).isZero();
        assertThat(acquiresInOtherThread(other, Duration.ZERO)).isTrue();
    }

    @Test
    void aThreadThatDoesNotHoldTheLockCannotUnlockIt() throws Exception {
        FencedLock lock = registry().obtain("owned");
        assertThatThrownBy(lock::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("'owned'");

        lock.lock();
        assertThatThrownBy(() -> inOtherThread(() -> {
            lock.unlock();
            return null;
        })).isInstanceOf(IllegalMonitorStateException.class).hasMessageContaining("'owned'");
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.isLocked()).isTrue();
        lock.unlock();
    }

    @Test
    void aDetachedHoldIsReleasedFromAnotherThreadOnce() throws Exception {
        FencedLock lock = registry().obtain("detached");
        lock.lock();
        long fence = lock.fencingToken();

        DetachedLock hold = lock.detach();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(hold.fencingToken()).isEqualTo(fence);
        assertThat(registry().obtain("detached").tryLock()).isFalse();

        inOtherThread(() -> {
            hold.unlock();
            return null;
        });
        assertThat(hold.isHeld()).isFalse();
        assertThat(lock.isLocked()).isFalse();
        assertThatThrownBy(hold::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("'detached'");
    }

    @Test
    void handlesOfOneRegistryForOneNameAreEqual() throws Exception {
        LockRegistry registry = registry();
        FencedLock lock = registry.obtain("same");

        assertThat(registry.obtain("same", Lease.fixed(Duration.ofSeconds(5)), "label")).isEqualTo(lock)
                .hasSameHashCodeAs(lock);
        assertThat(registry.obtain("other")).isNotEqualTo(lock);
        assertThat(registry().obtain("same")).isNotEqualTo(lock);
    }

    @Test
    void aDetachedHoldCanBeExtendedAndReadsItsLease() throws Exception {
        FencedLock lock = registry().obtain("detached-lease", Lease.fixed(Duration.ofSeconds(2)));
        lock.lock();
        DetachedLock hold = lock.detach();

        hold.extend(Duration.ofSeconds(60));

        assertThat(hold.remainingLease()).isGreaterThan(Duration.ofSeconds(2));
        hold.unlock();
        assertThatThrownBy(hold::remainingLease).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(() -> hold.extend(Duration.ofSeconds(1))).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void unlockAfterLeavesTheLockTakenForTheDelayThenFreesIt() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock lock = registry(listener).obtain("at-least");
        FencedLock other = registry().obtain("at-least");
        lock.lock();

        lock.unlockAfter(Duration.ofMillis(300));

        assertThat(lock.holdCount()).isZero();
        assertThat(acquiresInOtherThread(other, Duration.ZERO)).as("taken during the delay").isFalse();
        assertThat(acquiresInOtherThread(other, PATIENCE)).as("free after the delay").isTrue();
        assertThat(listener.events("released")).hasSize(1);
        assertThat(listener.events("lost")).isEmpty();
    }

    @Test
    void unlockAfterWithoutDelayIsAPlainUnlock() throws Exception {
        FencedLock lock = registry().obtain("no-delay");
        lock.lock();
        lock.unlockAfter(Duration.ZERO);
        assertThat(acquiresInOtherThread(registry().obtain("no-delay"), Duration.ZERO)).isTrue();
    }

    // --- leases, renewal, loss ---

    @Test
    void aFixedLeaseExpiresAndTheLateUnlockReportsLossWithoutTouchingTheNewOwner() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock first = registry(listener).obtain("expiring", Lease.fixed(Duration.ofMillis(200)));
        FencedLock second = registry().obtain("expiring");
        first.lock();
        long firstFence = first.fencingToken();

        Background<Long> secondFence = new Background<>(() -> second.tryLock(PATIENCE) ? second.fencingToken() : -1L);
        assertThat(secondFence.get()).isGreaterThan(firstFence);

        assertThatThrownBy(first::unlock).isInstanceOf(LockLostException.class)
                .hasMessageContaining("'expiring'").hasMessageContaining("expired or another owner took it");
        assertThat(second.isLocked()).isTrue();
        assertThat(registry().obtain("expiring").tryLock()).isFalse();
        assertThat(listener.events("lost")).singleElement()
                .satisfies(event -> assertThat(event.fencingToken()).isEqualTo(firstFence));
        assertThat(first.holdCount()).isZero();
    }

    @Test
    void aFixedLeaseThatRanOutIsLostAtOnceCannotBeReenteredAndFreesTheNameForTheOtherThreads() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        FencedLock lock = registry.obtain("ran-out", Lease.fixed(Duration.ofMillis(200)));
        lock.lock();

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::tryLock).isInstanceOf(LockLostException.class).hasMessageContaining("'ran-out'");
        assertThat(lock.holdCount()).isOne();
        assertThat(acquiresInOtherThread(registry.obtain("ran-out"), PATIENCE)).isTrue();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(listener.events("lost")).singleElement()
                .satisfies(event -> assertThat(event.error()).hasMessageContaining("ran out"));
    }

    @Test
    void aWaiterWakesWhenTheHoldersLeaseRunsOutInTheBackend() throws Exception {
        LockRegistry holderProcess = registry();
        holderProcess.obtain("abandoned", Lease.fixed(Duration.ofMillis(300))).lock();
        // the holder's process goes away without releasing: only the lease frees the lock
        ((AutoCloseable) holderProcess).close();
        FencedLock waiter = registry(new RecordingListener(), Duration.ofMinutes(1)).obtain("abandoned");

        assertThat(waiter.tryLock(PATIENCE)).as("woken by the lease's end, not by its one-minute poll").isTrue();
        waiter.unlock();
    }

    @Test
    void theWatchdogKeepsALockAlivePastThreeTimesItsLease() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock lock = registry(listener).obtain("renewed", Lease.renewed(Duration.ofMillis(600)));
        FencedLock other = registry().obtain("renewed");
        lock.lock();

        assertThat(acquiresInOtherThread(other, Duration.ofMillis(2000))).isFalse();

        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(listener.events("lost")).isEmpty();
        assertThat(listener.events("released")).hasSize(1);
    }

    @Test
    void manyHoldsRenewedTogetherStayAliveAndOneDeletedAmongThemIsLost() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        List<DetachedLock> holds = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            holds.add(registry.obtain("renewed-together:" + i, Lease.renewed(Duration.ofMillis(600))).lockAsync()
                    .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        }
        deleteFromOutside(registry, "renewed-together:7");

        FencedLock other = registry().obtain("renewed-together:3");
        assertThat(acquiresInOtherThread(other, Duration.ofMillis(2000))).as("past three leases").isFalse();

        awaitUntil(() -> !holds.get(7).isHeld());
        for (int i = 0; i < holds.size(); i++) {
            if (i != 7) {
                assertThat(holds.get(i).isHeld()).as("hold " + i).isTrue();
                holds.get(i).verifyHeld();
                holds.get(i).unlock();
            }
        }
        assertThat(listener.events("lost")).as("only the deleted one").hasSize(1);
    }

    @Test
    void aDeletedKeyIsDetectedAsLossByTheWatchdog() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        FencedLock lock = registry.obtain("deleted", Lease.renewed(Duration.ofMillis(600)));
        lock.lock();

        deleteFromOutside(registry, "deleted");

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(lock.remainingLease()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("'deleted'");
        assertThat(listener.events("lost")).hasSize(1);
        assertThat(listener.events("released")).isEmpty();
    }

    @Test
    void anOverwrittenKeyIsDetectedAsLossAndLeftToItsNewOwner() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        FencedLock lock = registry.obtain("overwritten", Lease.renewed(Duration.ofMillis(600)));
        lock.lock();

        overwriteFromOutside(registry, "overwritten", "intruder");

        assertThat(listener.awaitLoss(PATIENCE)).isTrue();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.isLocked()).isTrue();
        assertThat(registry().obtain("overwritten").tryLock()).isFalse();
    }

    /**
     * An operator frees a hung holder's lock by the fencing token {@code inspect} showed: a stale token frees nothing;
     * the right one hands the lock to the process waiting for it with a larger token, and the holder, which keeps
     * renewing, finds the hold lost at its next renewal.
     */
    @Test
    void aForcedReleaseFreesTheNamedHoldForAWaiterAndItsOwnerFindsItLostAtItsNextRenewal() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry hungProcess = registry(listener);
        FencedLock hung = hungProcess.obtain("hung", Lease.renewed(Duration.ofMillis(600)));
        hung.lock();
        LockRegistry operator = registry();
        long fence = operator.inspect("hung").fencingToken();
        assertThat(fence).isEqualTo(hung.fencingToken());
        Background<Long> waited = takeAndRelease(registry().obtain("hung"));
        Background<Long> waitedInHungProcess = takeAndRelease(hungProcess.obtain("hung"));

        assertThat(operator.forceRelease("hung", fence - 1)).as("a stale fencing token").isFalse();
        assertThat(operator.inspect("hung").fencingToken()).isEqualTo(fence);
        assertThat(operator.forceRelease("hung", fence)).isTrue();

        assertThat(waited.get()).as("the other process's waiter's token").isGreaterThan(fence);
        assertThat(waitedInHungProcess.get()).as("the token of a waiter in the hung process").isGreaterThan(fence);
        assertThat(listener.awaitLoss(PATIENCE)).as("found at the next renewal").isTrue();
        assertThatThrownBy(hung::unlock).isInstanceOf(LockLostException.class);
        assertThat(listener.events("lost")).singleElement().satisfies(lost -> assertThat(lost.fencingToken())
                .isEqualTo(fence));
        assertThat(listener.events("released")).as("only the waiter's").singleElement()
                .satisfies(released -> assertThat(released.fencingToken()).isGreaterThan(fence));
        assertThat(operator.forceRelease("hung", fence)).as("ended already").isFalse();
    }

    /** Waits for {@code lock} in another thread, then releases it: completes with its fencing token, or -1. */
    private static Background<Long> takeAndRelease(FencedLock lock) {
        return new Background<>(() -> {
            if (!lock.tryLock(PATIENCE)) {
                return -1L;
            }
            long taken = lock.fencingToken();
            lock.unlock();
            return taken;
        });
    }

    @Test
    void aKeyDeletedFromOutsideIsALossAtUnlockEvenBeforeTheWatchdogNoticed() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        FencedLock lock = registry.obtain("deleted-then-unlocked", Lease.fixed(Duration.ofSeconds(30)));
        lock.lock();

        deleteFromOutside(registry, "deleted-then-unlocked");

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class)
                .hasMessageContaining("'deleted-then-unlocked'");
        assertThat(listener.events("lost")).hasSize(1);
        assertThat(listener.events("released")).isEmpty();
    }

    @Test
    void aLockOnSeveralNamesTakesThemAllOrNoneAndGivesEachItsToken() throws Exception {
        DetachedLock busy = heldElsewhere("several:b");
        FencedLock several = registry().obtainAll(List.of("several:c", "several:a", "several:b", "several:a"));
        assertThat(several.name()).isEqualTo("[several:a, several:b, several:c]");

        assertThat(several.tryLock(Duration.ofMillis(100))).isFalse();
        awaitUntil(() -> !registry().obtain("several:a").isLocked()); // given back without waiting for the store
        assertThat(registry().obtain("several:c").isLocked()).as("never taken").isFalse();

        busy.unlock();
        assertThat(several.tryLock(PATIENCE)).isTrue();
        assertThat(several.isHeldByCurrentThread()).isTrue();
        assertThat(several.fencingTokens()).containsOnlyKeys("several:a", "several:b", "several:c");
        assertThatThrownBy(several::fencingToken).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("fencingTokens()");
        several.unlock();
        assertThat(registry().obtain("several:b").isLocked()).isFalse();
        LockRegistry registry = registry();
        assertThat(registry.obtainAll(List.of("one", "one"))).as("one name's own lock")
                .isEqualTo(registry.obtain("one"));
    }

    @Test
    void locksOnOverlappingNamesListedInOppositeOrdersNeverDeadlock() throws Exception {
        LockRegistry first = registry();
        LockRegistry second = registry();
        AtomicInteger counter = new AtomicInteger();
        int rounds = 100;
        Callable<Void> forwards = transfers(first.obtainAll(List.of("pair:x", "pair:y")), counter, rounds);
        Callable<Void> backwards = transfers(second.obtainAll(List.of("pair:y", "pair:x")), counter, rounds);

        ExecutorService threads = Executors.newFixedThreadPool(2);
        try {
            Future<Void> one = threads.submit(forwards);
            Future<Void> other = threads.submit(backwards);
            one.get(60, TimeUnit.SECONDS);
            other.get(60, TimeUnit.SECONDS);
        } finally {
            threads.shutdownNow();
        }
        assertThat(counter.get()).as("increments, each a read and a write apart").isEqualTo(2 * rounds);
    }

    /** {@code rounds} read-then-write increments of {@code counter}, each under {@code lock}. */
    private static Callable<Void> transfers(FencedLock lock, AtomicInteger counter, int rounds) {
        return () -> {
            for (int i = 0; i < rounds; i++) {
                assertThat(lock.tryLock(PATIENCE)).isTrue();
                try {
                    int read = counter.get();
                    Thread.yield();
                    counter.set(read + 1);
                } finally {
                    lock.unlock();
                }
            }
            return null;
        };
    }

    @Test
    void aLockOnSeveralNamesAcquiredWithoutAThreadGivesBackWhatItTookWhenOneStaysBusy() throws Exception {
        DetachedLock busy = heldElsewhere("async-several:b");
        FencedLock several = registry().obtainAll(List.of("async-several:a", "async-several:b"));

        assertThat(several.tryLockAsync(Duration.ofMillis(100)).toCompletableFuture()
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isNull();
        awaitUntil(() -> !registry().obtain("async-several:a").isLocked());

        busy.unlock();
        DetachedLock hold = several.tryLockAsync(PATIENCE).toCompletableFuture()
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(hold.isHeld()).isTrue();
        assertThat(hold.fencingTokens()).containsOnlyKeys("async-several:a", "async-several:b");
        hold.unlockAsync().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        assertThat(several.isLocked()).isFalse();
    }

    @Test
    void cancellingAPendingLockOnSeveralNamesGivesBackWhatItTook() throws Exception {
        DetachedLock busy = heldElsewhere("cancelled-several:b");
        FencedLock several = registry().obtainAll(List.of("cancelled-several:a", "cancelled-several:b"));
        CompletableFuture<DetachedLock> pending = several.tryLockAsync(PATIENCE)
                .toCompletableFuture();
        awaitUntil(() -> registry().obtain("cancelled-several:a").isLocked());

        assertThat(pending.cancel(true)).isTrue();

        awaitUntil(() -> !registry().obtain("cancelled-several:a").isLocked());
        busy.unlock();
        FencedLock again = registry().obtainAll(List.of("cancelled-several:b", "cancelled-several:a"));
        assertThat(again.tryLock(PATIENCE)).as("nothing left behind by the cancelled call").isTrue();
        again.unlock();
    }

    @Test
    void verifyHeldAsksTheBackendAndFindsAKeyDeletedBeforeTheWatchdogNoticed() throws Exception {
        RecordingListener listener = new RecordingListener();
        LockRegistry registry = registry(listener);
        FencedLock lock = registry.obtain("verified", Lease.fixed(Duration.ofSeconds(30)));
        lock.lock();
        lock.verifyHeld();

        deleteFromOutside(registry, "verified");

        assertThatThrownBy(lock::verifyHeld).isInstanceOf(LockLostException.class).hasMessageContaining("'verified'")
                .hasMessageContaining("no longer holds it");
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(listener.events("lost")).hasSize(1);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(listener.events("lost")).as("one hold, one loss").hasSize(1);
    }

    @Test
    void verifyHeldOnADetachedHoldFindsAnOverwrittenKey() throws Exception {
        LockRegistry registry = registry();
        DetachedLock hold = registry.obtain("verified-detached", Lease.fixed(Duration.ofSeconds(30))).lockAsync()
                .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        hold.verifyHeld();

        overwriteFromOutside(registry, "verified-detached", "intruder");

        assertThatThrownBy(hold::verifyHeld).isInstanceOf(LockLostException.class)
                .hasMessageContaining("'verified-detached'");
        assertThat(hold.isHeld()).isFalse();
        assertThatThrownBy(hold::unlock).isInstanceOf(LockLostException.class);
        assertThatThrownBy(hold::verifyHeld).as("released (here: found lost) already")
                .isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void verifyHeldAsyncFindsADeletedKeyWithoutBlocking() throws Exception {
        LockRegistry registry = registry();
        DetachedLock one = registry.obtain("verified-async", Lease.fixed(Duration.ofSeconds(30))).lockAsync()
                .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        DetachedLock both = registry.obtainAll(List.of("verified-async:b", "verified-async:a")).lockAsync()
                .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        one.verifyHeldAsync().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        both.verifyHeldAsync().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        deleteFromOutside(registry, "verified-async");
        deleteFromOutside(registry, "verified-async:b");

        assertThatThrownBy(() -> one.verifyHeldAsync().toCompletableFuture().get(PATIENCE.toSeconds(),
                TimeUnit.SECONDS)).hasCauseInstanceOf(LockLostException.class)
                .hasMessageContaining("'verified-async'");
        assertThat(one.isHeld()).isFalse();
        // a handler gets the exception itself, as the blocking call would throw it, not wrapped
        assertThat(both.verifyHeldAsync().handle((done, failure) -> failure).toCompletableFuture()
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isInstanceOf(LockLostException.class)
                .hasMessageContaining("'verified-async:b'");
    }

    @Test
    void extendSetsTheRemainingLease() throws Exception {
        FencedLock lock = registry().obtain("extended", Lease.fixed(Duration.ofSeconds(2)));
        lock.lock();
        assertThat(lock.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(2));

        lock.extend(Duration.ofSeconds(60));

        assertThat(lock.remainingLease()).isGreaterThan(Duration.ofSeconds(2));
        lock.unlock();
        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(1))).isInstanceOf(IllegalMonitorStateException.class);
    }

    @Test
    void extendAfterLossReportsTheLoss() throws Exception {
        LockRegistry registry = registry();
        FencedLock lock = registry.obtain("extend-lost", Lease.fixed(Duration.ofSeconds(30)));
        lock.lock();
        deleteFromOutside(registry, "extend-lost");

        assertThatThrownBy(() -> lock.extend(Duration.ofSeconds(30))).isInstanceOf(LockLostException.class);
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    // --- fencing tokens ---

    @Test
    void fencingTokensGrowAcrossHoldersReleasesAndExpiry() throws Exception {
        LockRegistry registry = registry();
        FencedLock a = registry.obtain("fenced");
        FencedLock b = registry().obtain("fenced");
        List<Long> tokens = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            a.lock();
            tokens.add(a.fencingToken());
            a.unlock();
            b.lock();
            tokens.add(b.fencingToken());
            b.unlock();
        }

        FencedLock expiring = registry.obtain("fenced", Lease.fixed(Duration.ofMillis(100)));
        expiring.lock();
        tokens.add(expiring.fencingToken());
        tokens.add(inOtherThread(() -> b.tryLock(PATIENCE) ? b.fencingToken() : -1L));

        assertThat(tokens).hasSize(12).isSorted().doesNotHaveDuplicates();
        assertThatThrownBy(expiring::unlock).isInstanceOf(LockLostException.class);
    }

    // --- interrupts ---

    @Test
    void anInterruptEndsATimedWaitAndLeavesNothingHeld() throws Exception {
        FencedLock holder = registry().obtain("interrupted");
        FencedLock waiter = registry().obtain("interrupted");
        holder.lock();

        Background<Boolean> waiting = new Background<>(() -> waiter.tryLock(Duration.ofSeconds(60)));
        waiting.interruptWhenBlocked();

        assertThatThrownBy(waiting::get).isInstanceOf(InterruptedException.class);
        holder.unlock();
        assertThat(holder.isLocked()).isFalse();
        assertThat(registry().obtain("interrupted").tryLock()).isTrue();
    }

    @Test
    void anAlreadyInterruptedThreadDoesNotAcquireInterruptiblyButCanStillUnlock() throws Exception {
        FencedLock lock = registry().obtain("pre-interrupted");
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> lock.tryLock(Duration.ofSeconds(1))).isInstanceOf(InterruptedException.class);
            assertThat(lock.isLocked()).isFalse();

            Thread.currentThread().interrupt();
            lock.lock();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
            lock.unlock();
            assertThat(Thread.currentThread().isInterrupted()).as("interrupt flag kept by unlock").isTrue();
            assertThat(Thread.interrupted()).isTrue();
            assertThat(lock.isLocked()).isFalse();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void anUninterruptibleLockKeepsWaitingThroughAnInterruptAndKeepsTheFlag() throws Exception {
        FencedLock holder = registry().obtain("uninterruptible");
        FencedLock waiter = registry().obtain("uninterruptible");
        holder.lock();

        Background<Boolean> flagAfterLock = new Background<>(() -> {
            waiter.lock();
            boolean interrupted = Thread.interrupted();
            waiter.unlock();
            return interrupted;
        });
        flagAfterLock.interruptWhenBlocked();
        assertThat(flagAfterLock.isDone()).isFalse();
        holder.unlock();

        assertThat(flagAfterLock.get()).isTrue();
    }

    // --- names and misc ---

    @Test
    void namesMayHoldAnyCharacterAndStayDistinct() throws Exception {
        LockRegistry registry = registry();
        LockRegistry other = registry();
        List<String> names = List.of("with space", "ünïcødé ✓ 🔒", "glob*?[]", "{braces}", "}leading", "a}b{c",
                "%7D", "}", "line\nbreak", "tab\there", "x".repeat(1024));
        List<FencedLock> held = new ArrayList<>();
        for (String name : names) {
            FencedLock lock = registry.obtain(name);
            assertThat(lock.tryLock()).as(name).isTrue();
            held.add(lock);
        }
        for (String name : names) {
            assertThat(acquiresInOtherThread(other.obtain(name), Duration.ZERO)).as(name).isFalse();
        }
        for (FencedLock lock : held) {
            lock.unlock();
        }
        for (String name : names) {
            assertThat(other.obtain(name).isLocked()).as(name).isFalse();
        }
    }

    @Test
    void invalidNamesAreRejectedWithTheRule() throws Exception {
        LockRegistry registry = registry();
        assertThatThrownBy(() -> registry.obtain("")).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("must not be null or empty");
        assertThatThrownBy(() -> registry.obtain("x".repeat(1025))).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("at most 1024 characters");
        assertThatThrownBy(() -> registry.obtain("bad\uD800")).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("unpaired surrogate");
    }

    @Test
    void conditionsAreNotSupported() throws Exception {
        assertThatThrownBy(() -> registry().obtain("cond").newCondition())
                .isInstanceOf(UnsupportedOperationException.class).hasMessageContaining("'cond'");
    }

    @Test
    void listenersHearAcquisitionsAndReleasesWithFencingTokenAndLabel() throws Exception {
        RecordingListener listener = new RecordingListener();
        FencedLock lock = registry(listener).obtain("heard", Lease.renewed(), "OrderService.pay");
        lock.lock();
        lock.lock();
        long fence = lock.fencingToken();
        lock.unlock();
        lock.unlock();

        assertThat(listener.recorded()).extracting(RecordingListener.Recorded::type)
                .containsExactly("acquired", "released");
        assertThat(listener.recorded()).extracting(RecordingListener.Recorded::event).allSatisfy(event -> {
            assertThat(event.lockName()).isEqualTo("heard");
            assertThat(event.label()).isEqualTo("OrderService.pay");
            assertThat(event.fencingToken()).isEqualTo(fence);
        });
    }

    @Test
    void theCounterStaysExactUnderContentionFromTwoProcesses() throws Exception {
        VolatileCounter counter = new VolatileCounter();
        MutualExclusionFuzzer.Result result = MutualExclusionFuzzer.run(List.of(registry(), registry()), "fuzz", 4, 100,
                counter, Duration.ofSeconds(50));

        assertThat(result.actual()).isEqualTo(result.expected()).isEqualTo(800);
        assertThat(result.maxConcurrentHolders()).isEqualTo(1);
        assertThat(result.fencingTokensIncreased()).isTrue();
    }

    /** A counter in this JVM whose reads see earlier writes; updates are still two separate steps. */
    private static final class VolatileCounter implements MutualExclusionFuzzer.SharedCounter {

        private volatile long value;

        @Override
        public long read() {
            return value;
        }

        @Override
        public void write(long newValue) {
            value = newValue;
        }
    }
}
