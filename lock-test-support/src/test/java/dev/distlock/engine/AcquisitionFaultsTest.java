package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import dev.distlock.test.scripted.ScriptedLockStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * Tries whose reply is lost, late, interrupted or sent twice: the caller gets a clear answer within one
 * backend call, nothing is left held by a token nobody tracks, and no two holders ever overlap.
 */
class AcquisitionFaultsTest extends ScriptedStoreTest {

    /**
     * Issue case 1: {@code lock()} is interrupted while its try is in flight and the lock is handed to it. The
     * token of that try is abandoned (its hand-off passes on) and the call goes on with a new token: it never
     * holds the lock together with the next waiter.
     */
    @Test
    void anInterruptedTryThatCoincidesWithAHandOffNeverMakesTwoHolders() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        ScriptedLockRegistry interruptedProcess = registries.process(events, b -> b.maxPollInterval(Duration.ofMillis(50)));
        ScriptedLockRegistry nextProcess = registries.process(events);
        Oracle oracle = new Oracle();
        holder.lock();
        Background<Boolean> interrupted = new Background<>("interrupted", () -> {
            FencedLock lock = interruptedProcess.obtain("job");
            lock.lock();
            oracle.inside(lock.fencingToken());
            lock.unlock();
            return Thread.interrupted();
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);
        // its next poll runs (the entry stays live) but the reply hangs
        ScriptedCall poll = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        Thread polling = poll.awaitEntered();
        Background<Boolean> next = new Background<>("next", () -> {
            FencedLock lock = nextProcess.obtain("job");
            if (!lock.tryLock(PATIENCE)) {
                return false;
            }
            oracle.inside(lock.fencingToken());
            lock.unlock();
            return true;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 2);

        holder.unlock();
        polling.interrupt();

        assertThat(interrupted.get()).as("lock() returned holding, with the interrupt flag set").isTrue();
        assertThat(next.get()).isTrue();
        assertThat(oracle.maxInside()).as("holders at once").isEqualTo(1);
        assertThat(oracle.fences()).hasSize(2).isSorted().doesNotHaveDuplicates();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** Issue case 7: the try took the lock, but its reply was lost. */
    @Test
    void aTryWhoseReplyWasLostLeavesNoOwnerlessLockBehind() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        store.next(Op.ACQUIRE, "job").loseReply();

        assertThatThrownBy(lock::tryLock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("the reply of ACQUIRE was lost");

        // the backend did give the lock to that try's token: the clean-up releases it in the background
        awaitUntil(() -> !store.backend().isLocked("job"));
        assertThat(registries.process(new Events()).obtain("job").tryLock()).isTrue();
        assertThat(events.acquireFailed).singleElement()
                .satisfies(event -> assertThat(event.error()).isInstanceOf(LockBackendException.class));
    }

    /**
     * Issue case 7, the caller's side: a queued waiter whose poll fails returns after that one call; leaving
     * the queue happens in the background, not in two more calls that could each take a command timeout.
     */
    @Test
    void aWaiterWhosePollFailsReturnsAtOnceAndLeavesTheQueueInTheBackground() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(Duration.ofMillis(20))).obtain("job");
        holder.lock();
        Background<Boolean> waiting = new Background<>("waiter", () -> waiter.tryLock(PATIENCE));
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);
        store.next(Op.ACQUIRE, "job").loseReply();

        assertThatThrownBy(waiting::get).isInstanceOf(LockBackendException.class);
        Thread caller = waiting.thread();
        assertThat(store.callsOn(Op.LEAVE, caller) + store.callsOn(Op.ABANDON, caller)
                + store.callsOn(Op.RELEASE, caller)).isZero();
        awaitUntil(() -> store.backend().waitersQueued("job") == 0);
        holder.unlock();
        assertThat(store.backend().isLocked("job")).as("not handed to the failed waiter").isFalse();
    }

    /** Issue case 7 for zero waits: a {@code tryLock()} that fails leaves nothing held either. */
    @Test
    void aZeroWaitTryThatFailsAfterTakingTheLockLeavesItFree() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        store.next(Op.ACQUIRE, "job").loseReply();
        assertThatThrownBy(() -> lock.tryLock(Duration.ZERO)).isInstanceOf(LockBackendException.class);
        awaitUntil(() -> !store.backend().isLocked("job"));
        assertThat(lock.tryLock()).isTrue();
        lock.unlock();
    }

    /**
     * A transient failure (a slot moving, a failover) is tried again within the caller's wait, each time with
     * a new token (whatever the failed try may have left is cleaned up).
     */
    @Test
    void transientFailuresAreTriedAgainWithinTheWaitWithNewTokens() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        store.next(Op.ACQUIRE, "job").fail(new ScriptedLockStore.TransientFailure("TRYAGAIN slot migrating"));
        store.next(Op.ACQUIRE, "job").fail(new ScriptedLockStore.TransientFailure("CLUSTERDOWN"));

        assertThat(lock.tryLock(PATIENCE)).isTrue();

        assertThat(store.recorded()).filteredOn(call -> call.op() == Op.ACQUIRE)
                .extracting(ScriptedLockStore.Recorded::token).hasSize(3).doesNotHaveDuplicates();
        lock.unlock();
    }

    @Test
    void aTransientFailureThatLastsFailsTheCallWhenTheWaitRunsOutWithWhatRedisSaid() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        ScriptedCall failing = store.every(Op.ACQUIRE, "job")
                .fail(new ScriptedLockStore.TransientFailure("CLUSTERDOWN The cluster is down"));

        assertThatThrownBy(() -> lock.tryLock(Duration.ofMillis(300))).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("CLUSTERDOWN");
        assertThat(store.calls(Op.ACQUIRE, "job")).isGreaterThan(1);
        failing.disarm();
        assertThatThrownBy(() -> {
            store.next(Op.ACQUIRE, "job").fail(new ScriptedLockStore.TransientFailure("TRYAGAIN"));
            lock.tryLock();
        }).as("a zero wait has no time for another try").isInstanceOf(LockBackendException.class);
    }

    @Test
    void aFailureThatIsNotTransientIsNotTriedAgain() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        store.next(Op.ACQUIRE, "job").fail(new IllegalStateException("NOPERM this user has no permissions"));

        assertThatThrownBy(() -> lock.tryLock(PATIENCE)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("NOPERM");
        assertThat(store.calls(Op.ACQUIRE, "job")).isOne();
    }

    /** A release that fails transiently is tried again at once, so {@code unlock()} succeeds. */
    @Test
    void aReleaseThatFailsTransientlyIsTriedAgain() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        store.next(Op.RELEASE, "job").fail(new ScriptedLockStore.TransientFailure("READONLY failover"));

        lock.unlock();

        assertThat(store.backend().isLocked("job")).isFalse();
        assertThat(events.released).hasSize(1);
    }

    /** Issue case 8: the client sent the try again after a reconnect; the caller sees only the second reply. */
    @Test
    void aTrySentTwiceReportsTheHoldItMade() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        store.next(Op.ACQUIRE, "job").replay();

        assertThat(lock.tryLock()).isTrue();
        assertThat(lock.fencingToken()).isPositive();
        assertThat(registries.process(new Events()).obtain("job").tryLock()).isFalse();
        lock.unlock();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** Issue case 8: a release sent twice reports neither a loss nor a failure. */
    @Test
    void aReleaseSentTwiceReportsNothingFalse() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        store.next(Op.RELEASE, "job").replay();

        lock.unlock();

        assertThat(events.lost).isEmpty();
        assertThat(events.released).hasSize(1);
    }

    /** Issue case 8: a release that handed the lock over, sent twice, reports nothing false either. */
    @Test
    void aHandingOverReleaseSentTwiceReportsNothingFalse() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        FencedLock waiter = registries.process(new Events()).obtain("job");
        holder.lock();
        Background<Boolean> waiting = new Background<>("waiter", () -> {
            boolean acquired = waiter.tryLock(PATIENCE);
            if (acquired) {
                waiter.unlock();
            }
            return acquired;
        });
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);
        store.next(Op.RELEASE, "job").replay();

        holder.unlock();

        assertThat(waiting.get()).isTrue();
        assertThat(events.lost).isEmpty();
    }

    /** An interrupt while waiting ends the call at once and takes the waiter out of the queue. */
    @Test
    void anInterruptedWaiterLeavesTheQueueSoTheLockIsNotHandedToIt() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        FencedLock waiter = registries.process(events).obtain("job");
        holder.lock();
        Background<Boolean> waiting = new Background<>("waiter", () -> waiter.tryLock(PATIENCE));
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        waiting.thread().interrupt();

        assertThatThrownBy(waiting::get).isInstanceOf(InterruptedException.class);
        assertThat(store.backend().waitersQueued("job")).isZero();
        holder.unlock();
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    /** Records who is inside and the fencing tokens, as the protected resource would. */
    private static final class Oracle {

        private final AtomicInteger inside = new AtomicInteger();
        private final AtomicInteger maxInside = new AtomicInteger();
        private final List<Long> fences = new CopyOnWriteArrayList<>();

        void inside(long fence) {
            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            fences.add(fence);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50)); // work, so that an overlap would show
            inside.decrementAndGet();
        }

        int maxInside() {
            return maxInside.get();
        }

        List<Long> fences() {
            return fences;
        }
    }
}
