package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static dev.distlock.engine.Registries.inOtherThread;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hold is trusted until a local deadline, and only that long: a fixed lease or renewals that cannot reach
 * the backend end it at once; questions about it never wait for the backend; renewals follow {@code extend}
 * and never hold up an unlock or each other.
 */
class HoldDeadlineTest extends ScriptedStoreTest {

    /** Issue case 3: a fixed lease ran out and the same thread tried again. */
    @Test
    void aFixedLeaseThatRanOutIsLostAtOnceAndTheThreadCannotReenterIt() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofMillis(200)));
        lock.lock();
        long fence = lock.fencingToken();

        // the watchdog reports the loss when the deadline passes, without asking the backend
        assertThat(events.awaitLoss(10)).isTrue();
        assertThat(store.calls(Op.EXTEND, "job")).isZero();
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock::tryLock).isInstanceOf(LockLostException.class)
                .hasMessageContaining("'job'").hasMessageContaining("fixed lease of PT0.2S ran out");
        assertThat(lock.holdCount()).as("re-entry did not count").isEqualTo(1);

        // the stale holder has not unlocked, yet another thread of its registry gets the lock
        assertThat(inOtherThread(() -> registry.obtain("job").tryLock(Registries.PATIENCE))).isTrue();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(lock.holdCount()).isZero();
        assertThat(events.lost).singleElement().satisfies(event -> {
            assertThat(event.fencingToken()).isEqualTo(fence);
            assertThat(event.error()).isInstanceOf(LockLostException.class).hasMessageContaining("ran out");
        });
    }

    /**
     * Issue case 5, in one process: renewals of one name hang. Questions about that hold answer at once, the
     * hold is lost when its deadline passes though the renewal never answered, and another name's renewals
     * go on meanwhile.
     */
    @Test
    void aHangingRenewalNeitherBlocksQuestionsNorOtherRenewalsAndTheHoldEndsAtItsDeadline() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        ScriptedCall hanging = store.every(Op.EXTEND, "stuck").holdBeforeRunning();
        FencedLock stuck = registry.obtain("stuck", Lease.renewed(Duration.ofMillis(600)));
        CountDownLatch healthyChecked = new CountDownLatch(1);
        Background<Boolean> healthy = new Background<>("healthy", () -> {
            FencedLock lock = registry.obtain("healthy", Lease.renewed(Duration.ofMillis(600)));
            lock.lock();
            healthyChecked.await(20, TimeUnit.SECONDS);
            boolean held = lock.isHeldByCurrentThread();
            lock.unlock();
            return held;
        });
        stuck.lock();
        hanging.awaitEntered();

        long asked = System.nanoTime();
        boolean heldWhileRenewalHangs = stuck.isHeldByCurrentThread();
        long fence = stuck.fencingToken();
        int count = stuck.holdCount();
        assertThat(Duration.ofNanos(System.nanoTime() - asked)).as("answered without waiting for the backend")
                .isLessThan(Duration.ofSeconds(1));
        assertThat(heldWhileRenewalHangs).isTrue();
        assertThat(fence).isPositive();
        assertThat(count).isOne();

        assertThat(events.awaitLoss(10)).isTrue();
        assertThat(stuck.isHeldByCurrentThread()).isFalse();
        assertThat(events.lost).singleElement().satisfies(event -> {
            assertThat(event.lockName()).isEqualTo("stuck");
            assertThat(event.error()).hasMessageContaining("no renewal of its lease of PT0.6S was confirmed");
        });
        assertThat(events.renewalFailed).isNotEmpty()
                .allSatisfy(event -> assertThat(event.lockName()).isEqualTo("stuck"));
        // the healthy name was renewed all along, well past its lease
        awaitUntil(() -> store.calls(Op.EXTEND, "healthy") >= 5);
        healthyChecked.countDown();
        assertThat(healthy.get()).isTrue();
        assertThat(events.lost).hasSize(1);
        hanging.disarm();
        hanging.proceed();
    }

    /** Issue case 2: {@code extend} to a shorter lease on a renewed hold. */
    @Test
    void extendToAShorterLeaseRenewsByTheNewLeaseAndMovesTheDeadline() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock lock = registry.obtain("job", Lease.renewed(Duration.ofSeconds(3)));
        lock.lock();

        lock.extend(Duration.ofMillis(300));

        // renewals every 100 ms keep the 300 ms key alive; renewing every second would let it expire
        long extendsSoFar = store.calls(Op.EXTEND, "job");
        awaitUntil(() -> store.calls(Op.EXTEND, "job") >= extendsSoFar + 4);
        assertThat(events.lost).isEmpty();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        assertThat(lock.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(300));

        // and the deadline is the new lease's: with renewals hanging the hold ends about 300 ms after the last one
        // answered; with the old lease's it would end almost 3 s after (less than the 100 ms since that renewal),
        // so 2 s leaves a loaded machine room and still tells them apart
        ScriptedCall hanging = store.every(Op.EXTEND, "job").holdBeforeRunning();
        long hangingSince = System.nanoTime();
        assertThat(events.awaitLoss(10)).isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - hangingSince)).isLessThan(Duration.ofSeconds(2));
        hanging.disarm();
        hanging.proceed();
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void aFailedRenewalIsTriedAgainSoonNotAPeriodLater() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock lock = registry.obtain("job", Lease.renewed(Duration.ofMillis(1200)));
        store.next(Op.EXTEND, "job").fail(new IllegalStateException("connection reset"));
        store.next(Op.EXTEND, "job").fail(new IllegalStateException("connection reset"));
        lock.lock();

        // renewals are due every 400 ms and the deadline is at about 1.2 s: two failures followed by
        // retries a period apart would lose the hold; retries 120 ms apart keep it
        awaitUntil(() -> store.calls(Op.EXTEND, "job") >= 4);
        assertThat(events.renewalFailed).hasSize(2).allSatisfy(event -> assertThat(event.error())
                .hasMessageContaining("'job'").hasMessageContaining("connection reset"));
        assertThat(events.lost).isEmpty();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(events.released).hasSize(1);
    }

    @Test
    void unlockDoesNotWaitForARenewalInFlightAndItsLateAnswerChangesNothing() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        ScriptedCall renewal = store.next(Op.EXTEND, "job").holdAfterRunning();
        FencedLock lock = registry.obtain("job", Lease.renewed(Duration.ofMillis(300)));
        lock.lock();
        renewal.awaitEntered();

        lock.unlock();

        assertThat(store.backend().isLocked("job")).isFalse();
        assertThat(events.released).hasSize(1);
        renewal.proceed();
        FencedLock next = registries.process(new Events()).obtain("job");
        assertThat(next.tryLock()).isTrue();
        assertThat(events.lost).isEmpty();
        next.unlock();
    }

    @Test
    void aDetachedHoldEndsAtItsDeadlineToo() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock lock = registry.obtain("job", Lease.fixed(Duration.ofMillis(150)));
        lock.lock();
        var detached = lock.detach();

        assertThat(events.awaitLoss(10)).isTrue();
        assertThat(detached.isHeld()).isFalse();
        assertThatThrownBy(detached::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("ran out");
        // the store's key may outlive the local deadline by the drift allowance: wait for it, not for the gate
        assertThat(inOtherThread(() -> registry.obtain("job").tryLock(Registries.PATIENCE)))
                .as("the gate was given back").isTrue();
    }
}
