package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockEvent;
import dev.distlock.core.WaitEnd;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Each acquired event tells how the call's wait ended: its first try, a hand-off notice, its poll, the end of the
 * holder's lease, or a release by a caller of the same registry; events without a hold tell none.
 */
class WaitEndTest extends ScriptedStoreTest {

    /** Long enough that no waiter here polls on its own within a test. */
    private static final Duration NO_POLL = Duration.ofMinutes(1);

    @Test
    void aFirstTryThatGetsTheLockIsImmediate() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");

        lock.lock();

        assertThat(acquiredBy(lock).waitEnd()).isEqualTo(WaitEnd.IMMEDIATE);
        lock.unlock();
    }

    @Test
    void aCallWithoutTheLockTellsNoWaitEnd() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        holder.lock();

        assertThat(registries.process(events).obtain("job").tryLock(Duration.ofMillis(50))).isFalse();

        assertThat(events.acquireFailed).singleElement().extracting(LockEvent::waitEnd).isNull();
        holder.unlock();
    }

    @Test
    void aWaiterWokenByAHandOffNoticeReportsTheNotice() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        holder.lock();
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(NO_POLL)).obtain("job");
        Background<WaitEnd> waiting = new Background<>("waiter", () -> acquireAndRelease(waiter));
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        holder.unlock();

        assertThat(waiting.get()).isEqualTo(WaitEnd.NOTICE);
    }

    @Test
    void aWaiterWhoseNoticeIsHeldBackReportsItsPoll() throws Exception {
        FencedLock holder = registries.process(events).obtain("job");
        holder.lock();
        store.holdNotices(); // the hand-off is made in the store, but only the waiter's poll finds it
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(Duration.ofMillis(100))).obtain("job");
        Background<WaitEnd> waiting = new Background<>("waiter", () -> acquireAndRelease(waiter));
        awaitUntil(() -> store.backend().waitersQueued("job") == 1);

        holder.unlock();

        assertThat(waiting.get()).isEqualTo(WaitEnd.POLL);
        store.deliverNotices();
    }

    @Test
    void aWaiterWokenWhenTheHoldersLeaseRunsOutReportsTheLeaseEnd() throws Exception {
        FencedLock holder = registries.process(events).obtain("job", Lease.fixed(Duration.ofMillis(300)));
        holder.lock();
        // nobody releases the lock: only its lease running out in the store frees it
        store.every(Op.ABANDON, "job").fail(new IllegalStateException("unreachable"));
        FencedLock waiter = registries.process(events, b -> b.maxPollInterval(NO_POLL)).obtain("job");

        assertThat(waiter.tryLock(PATIENCE)).isTrue();

        assertThat(acquiredBy(waiter).waitEnd()).isEqualTo(WaitEnd.LEASE_END);
        waiter.unlock();
    }

    @Test
    void aCallerLetInByAReleaseOfTheSameRegistryInOneCallReportsTheLocalHandOff() throws Exception {
        store.passInOneCall();

        assertThat(handedOnLocally()).isEqualTo(WaitEnd.LOCAL_HAND_OFF);
        assertThat(store.calls(Op.PASS_ON, "job")).as("the try went with the release").isEqualTo(1);
    }

    @Test
    void aCallerLetInByAReleaseOfTheSameRegistryWithItsOwnTryReportsTheLocalHandOff() throws Exception {
        assertThat(handedOnLocally()).isEqualTo(WaitEnd.LOCAL_HAND_OFF);
        assertThat(store.calls(Op.PASS_ON, "job")).as("the store cannot pass a try on").isZero();
    }

    /** A holder and a second caller of the same registry waiting at the name: the holder releases. */
    private WaitEnd handedOnLocally() throws Exception {
        ScriptedLockRegistry registry = registries.process(events);
        FencedLock first = registry.obtain("job");
        first.lock();
        FencedLock next = registry.obtain("job");
        Background<WaitEnd> waiting = new Background<>("next", () -> acquireAndRelease(next));
        awaitUntil(() -> waiting.thread().getState() == Thread.State.WAITING
                || waiting.thread().getState() == Thread.State.TIMED_WAITING);

        first.unlock();

        return waiting.get();
    }

    /** Acquires {@code lock} within the patience (on the calling thread, which then owns it), releases it, and tells
     * how its wait ended. */
    private WaitEnd acquireAndRelease(FencedLock lock) throws InterruptedException {
        assertThat(lock.tryLock(PATIENCE)).isTrue();
        try {
            return acquiredBy(lock).waitEnd();
        } finally {
            lock.unlock();
        }
    }

    /** The acquired event of {@code lock}'s hold, found by its fencing token. */
    private LockEvent acquiredBy(FencedLock lock) {
        long token = lock.fencingToken();
        return events.acquired.stream().filter(event -> event.fencingToken() == token).findFirst().orElseThrow();
    }
}
