package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.CommandTimeout;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import dev.distlock.test.contract.Background;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Where {@code extend}, renewals and release meet the holder's belief (the engine issue's cases 1 to 4): the
 * holder never believes a lease longer than the one the store may hold, a renewal never cuts back what an
 * {@code extend} set, {@code unlock()} waits for one command at most, and a release that took effect is never
 * reported lost.
 */
class LeaseChangeFaultsTest extends ScriptedStoreTest {

    /** Case 1: the extend to a shorter lease ran in the store, but its reply was lost (a command timeout). */
    @Test
    void aFailedExtendToAShorterLeaseCountsWithTheShorterLease() throws Exception {
        FencedLock lock = registries.process(events).obtain("job", Lease.renewed(Duration.ofSeconds(30)));
        lock.lock();
        store.next(Op.EXTEND, "job").loseReply(new CommandTimeout("Command timed out after 500ms"));

        assertThatThrownBy(() -> lock.extend(Duration.ofMillis(300))).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("timed out");

        // the key expires after 300 ms; once another process has it, the first must not believe it holds
        FencedLock other = registries.process(new Events()).obtain("job");
        assertThat(other.tryLock(Registries.PATIENCE)).isTrue();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThat(events.awaitLoss(10)).isTrue();
        other.unlock();
    }

    /** Case 2: a renewal sent before {@code extend(longer)} reaches the store after it. */
    @Test
    void aRenewalThatArrivesAfterAnExtendNeverCutsItsLeaseBack() throws Exception {
        FencedLock lock = registries.process(events).obtain("job", Lease.renewed(Duration.ofMillis(300)));
        ScriptedCall renewal = store.next(Op.EXTEND, "job").holdBeforeRunning();
        lock.lock();
        renewal.awaitEntered();

        lock.extend(Duration.ofSeconds(60));
        renewal.proceed();
        renewal.awaitDone();

        long remaining = store.backend().remainingLeaseMillis("job", store.backend().inspect("job").ownerToken());
        assertThat(remaining).as("the lease the extend set").isGreaterThan(50_000);
        assertThat(lock.remainingLease()).isGreaterThan(Duration.ofSeconds(50));
        lock.unlock();
        assertThat(events.lost).isEmpty();
    }

    /** Case 3: the release got no answer: {@code unlock()} gives up after that one command, the rest goes on behind. */
    @Test
    void unlockWaitsForOneCommandAtMostAndTheBackgroundFinishesTheRelease() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        store.next(Op.RELEASE, "job").fail(new CommandTimeout("Command timed out after 500ms"));

        assertThatThrownBy(lock::unlock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("retried in the background").hasMessageContaining("timed out");

        assertThat(store.calls(Op.RELEASE, "job")).as("sent by the caller").isOne();
        awaitUntil(() -> !store.backend().isLocked("job"));
        assertThat(events.lost).isEmpty();
    }

    /**
     * Case 4: the release ran but its reply was lost, and another process took the lock before anything was sent
     * again for it: the release is never reported lost.
     */
    @Test
    void aReleaseWhoseReplyWasLostIsNeverReportedLost() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        ScriptedLockRegistry other = registries.process(new Events());
        AtomicBoolean takenOver = new AtomicBoolean();
        Runnable takeOver = () -> {
            if (!takenOver.get()) {
                takenOver.set(other.obtain("job").tryLock());
            }
        };
        store.next(Op.RELEASE, "job").loseReply(new CommandTimeout("Command timed out after 500ms"));
        // whatever is sent again for the release (in the caller or behind it) finds the lock taken over
        store.next(Op.RELEASE, "job").runFirst(takeOver);
        store.next(Op.ABANDON, "job").runFirst(takeOver);

        assertThatThrownBy(lock::unlock).isNotInstanceOf(LockLostException.class);
        awaitUntil(takenOver::get);
        awaitUntil(() -> store.calls(Op.ABANDON, "job") + store.calls(Op.RELEASE, "job") >= 2);

        assertThat(events.lost).isEmpty();
        assertThat(store.backend().isLocked("job")).as("the other process keeps it").isTrue();
    }

    /**
     * The holder is interrupted while its release is in flight and the command ran (Redis slow): the interrupt ends the
     * client's wait, not the release. It is sent again without the interrupt, finds the lock gone (the first send's
     * doing, not a loss), and {@code unlock()} returns normally, the interrupt flag still set.
     */
    @Test
    void aReleaseThatRanWhileTheHolderWasInterruptedIsSentAgainAndReportedAsARelease() throws Exception {
        ScriptedCall release = store.next(Op.RELEASE, "job").holdAfterRunning()
                .interruptedAs(ScriptedStoreTest::clientInterrupted);

        assertThat(unlockInterruptedWhileSent(release)).as("unlock() returned with the interrupt flag set").isTrue();

        assertThat(store.calls(Op.RELEASE, "job")).as("sent again after the interrupt").isEqualTo(2);
        assertThat(events.released).hasSize(1);
        assertThat(events.lost).isEmpty();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** The same before the command reached the store: the release sent again is the one that releases. */
    @Test
    void aReleaseInterruptedBeforeItRanIsSentAgainAndReleases() throws Exception {
        ScriptedCall release = store.next(Op.RELEASE, "job").holdBeforeRunning()
                .interruptedAs(ScriptedStoreTest::clientInterrupted);

        assertThat(unlockInterruptedWhileSent(release)).as("unlock() returned with the interrupt flag set").isTrue();

        assertThat(events.released).hasSize(1);
        assertThat(events.lost).isEmpty();
        assertThat(store.backend().isLocked("job")).isFalse();
        FencedLock next = registries.process(new Events()).obtain("job");
        assertThat(next.tryLock()).as("free for another process").isTrue();
        next.unlock();
    }

    /**
     * A holder on another thread unlocks "job" with {@code release} scripted, and is interrupted while the release is
     * held; answers whether {@code unlock()} returned normally with the interrupt flag set.
     */
    private boolean unlockInterruptedWhileSent(ScriptedCall release) throws Exception {
        CountDownLatch held = new CountDownLatch(1);
        CountDownLatch letGo = new CountDownLatch(1);
        FencedLock lock = registries.process(events).obtain("job");
        Background<Boolean> holder = new Background<>("holder", () -> {
            lock.lock();
            held.countDown();
            letGo.await();
            lock.unlock();
            return Thread.currentThread().isInterrupted();
        });
        assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
        letGo.countDown();
        assertThat(release.awaitEntered()).isSameAs(holder.thread());
        holder.interruptWhenBlocked();
        return holder.get();
    }

    /** Case 9: closing twice or more is harmless, also with holds open (each name has its local gate). */
    @Test
    void closeIsIdempotent() {
        ScriptedLockRegistry registry = registries.process(events);
        registry.obtain("job").lock();
        for (int i = 0; i < 4; i++) {
            assertThatCode(registry::close).as("close #" + (i + 1)).doesNotThrowAnyException();
        }
    }
}
