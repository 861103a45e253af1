package dev.distlock.test.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.engine.hold.HoldClock;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TestLocksTest {

    private final TestLocks locks = new TestLocks();
    private final ExecutorService threads = Executors.newFixedThreadPool(2);

    @AfterEach
    void close() {
        threads.shutdownNow();
        locks.close();
    }

    @Test
    void aFixedLeaseEndsWhenTheClockPassesItAndNotBefore() {
        FencedLock lock = locks.registry().obtain("job", Lease.fixed(Duration.ofSeconds(30)));
        assertThat(lock.tryLock()).isTrue();
        // the holder counts its lease minus a margin for clock drift, so it stops before the store would
        Duration holderDeadline = Duration.ofMillis(30_000 - HoldClock.driftMillis(30_000));

        locks.advance(holderDeadline.minusMillis(1));
        assertThat(locks.isHeld("job")).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(locks.newProcess().obtain("job").tryLock()).isFalse();

        locks.advance(Duration.ofSeconds(30).minus(holderDeadline).plusMillis(1));
        assertThat(locks.isHeld("job")).isFalse();
        assertThat(locks.newProcess().obtain("job").tryLock()).isTrue();
    }

    @Test
    void aRenewedHoldStaysHeldAcrossAdvancesBecauseItsRenewalsFire() {
        FencedLock lock = locks.registry().obtain("job", Lease.renewed(Duration.ofSeconds(30)));
        assertThat(lock.tryLock()).isTrue();

        for (int i = 0; i < 20; i++) {
            locks.advance(Duration.ofSeconds(15));
        }

        assertThat(locks.clock().elapsed()).isGreaterThanOrEqualTo(Duration.ofMinutes(5));
        assertThat(locks.isHeld("job")).isTrue();
        lock.unlock();
        locks.assertNothingHeld();
    }

    @Test
    void expireMakesTheHoldersUnlockThrowAndOnLostFire() throws InterruptedException {
        CountDownLatch lost = new CountDownLatch(1);
        LockRegistry registry = locks.newProcess(builder -> builder.listener(new LockListener() {
            @Override
            public void onLost(LockEvent event) {
                lost.countDown();
            }
        }));
        FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofMinutes(1)));
        assertThat(lock.tryLock()).isTrue();

        assertThat(locks.expire("job")).isTrue();

        assertThat(locks.isHeld("job")).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lost.await(5, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void loseGivesTheLockToAnotherOwnerWithANewerFencingToken() {
        FencedLock lock = locks.registry().obtain("job", Lease.fixed(Duration.ofMinutes(1)));
        assertThat(lock.tryLock()).isTrue();
        long mine = lock.fencingToken();

        long theirs = locks.lose("job");

        assertThat(theirs).isGreaterThan(mine);
        assertThat(locks.newProcess().obtain("job").tryLock()).isFalse();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        locks.releaseAll();
        locks.assertNothingHeld();
    }

    @Test
    void failNextMakesTheNextAcquisitionFailWithTheGivenError() {
        IllegalStateException down = new IllegalStateException("store down");
        locks.failNext(StoreOp.TRY_ACQUIRE, "job", down);
        FencedLock lock = locks.registry().obtain("job");

        assertThatThrownBy(lock::tryLock).hasRootCauseInstanceOf(IllegalStateException.class)
                .hasStackTraceContaining("store down");
        assertThat(lock.tryLock()).isTrue(); // only the next call failed
        lock.unlock();
    }

    @Test
    void theJournalCatchesAnOverlapOfCallersWithoutALock() throws Exception {
        CountDownLatch bothIn = new CountDownLatch(2);
        Runnable unguarded = () -> locks.journal().run("job", () -> {
            bothIn.countDown();
            await(bothIn);
        });
        Future<?> first = threads.submit(unguarded);
        Future<?> second = threads.submit(unguarded);
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);

        assertThatThrownBy(() -> locks.assertNeverOverlapped("job")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("overlapped");
        assertThatThrownBy(() -> locks.assertRanUnderLock("job")).isInstanceOf(AssertionError.class)
                .hasMessageContaining("without holding it");
    }

    @Test
    void theJournalPassesCallersThatTakeTheLock() throws Exception {
        LockRegistry one = locks.newProcess();
        LockRegistry other = locks.newProcess();
        CountDownLatch started = new CountDownLatch(2);
        Future<?> first = threads.submit(() -> guarded(one, started));
        Future<?> second = threads.submit(() -> guarded(other, started));
        first.get(10, TimeUnit.SECONDS);
        second.get(10, TimeUnit.SECONDS);

        assertThat(locks.journal().sections("job")).hasSize(2);
        locks.assertNeverOverlapped("job");
        locks.assertRanUnderLock("job");
        locks.assertNothingHeld();
    }

    @Test
    void assertNothingHeldNamesTheLocksStillHeld() {
        assertThat(locks.registry().obtain("job").tryLock()).isTrue();

        assertThatThrownBy(locks::assertNothingHeld).hasMessageContaining("job");
        locks.reset();
        locks.assertNothingHeld();
    }

    private void guarded(LockRegistry registry, CountDownLatch started) {
        started.countDown();
        await(started);
        registry.executeLocked("job", Duration.ofSeconds(10), () -> locks.journal().run("job", () -> { }));
    }

    private static void await(CountDownLatch latch) {
        try {
            assertThat(latch.await(10, TimeUnit.SECONDS)).isTrue();
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            throw new AssertionError(ex);
        }
    }
}
