package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import dev.distlock.test.scripted.ScriptedLockStore.TransientFailure;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * How an acquisition spends its time when replies come late or the store keeps refusing (the engine issue's cases
 * 6 to 8): a hold whose validity is gone when its reply arrives does not count, transient errors after the name
 * was seen held end as a timeout, and a refusal that lasts is reported while {@code lock()} goes on waiting.
 */
class AcquisitionTimeFaultsTest extends ScriptedStoreTest {

    /** Case 6: the try's reply arrived after its fixed lease had run out in the store. */
    @Test
    void aTryWhoseReplyCameTooLateIsReleasedAndTriedAgainWithinTheWait() throws Exception {
        FencedLock lock = registries.process(events).obtain("job", Lease.fixed(Duration.ofMillis(300)));
        ScriptedCall late = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        Background<Boolean> locking = new Background<>("locker", () -> {
            boolean acquired = lock.tryLock(Registries.PATIENCE);
            boolean heldOnReturn = lock.isHeldByCurrentThread();
            if (acquired) {
                lock.unlock();
            }
            return acquired && heldOnReturn;
        });
        late.awaitEntered();
        awaitUntil(() -> store.backend().isLocked("job")); // the try ran in the store...
        awaitUntil(() -> !store.backend().isLocked("job")); // ...and its lease ran out while the reply was on its way

        late.proceed();

        assertThat(locking.get()).as("acquired, and held when tryLock returned").isTrue();
        assertThat(store.calls(Op.ACQUIRE, "job")).as("tried again with a new token").isEqualTo(2);
        assertThat(events.lost).isEmpty();
    }

    /**
     * A reply that took the lock too late to count is not followed by another try at once: {@code lock()} gives the
     * late token up and tries again only after a pause as long as that reply took (the poll interval being longer),
     * so replies that keep coming late never make it send tries at full speed. (A lease of 400 ms, not the shortest:
     * on a loaded machine the hold must outlive the moments between {@code lock()} and {@code unlock()}.)
     */
    @Test
    void aTryWhoseReplyCameTooLateIsTriedAgainOnlyAfterAPauseAsLongAsThatReplyTook() throws Exception {
        FencedLock lock = registries.process(events, settings -> settings.maxPollInterval(Duration.ofSeconds(30)))
                .obtain("job", Lease.fixed(Duration.ofMillis(400)));
        ScriptedCall late = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        Background<Boolean> locking = new Background<>("locker", () -> {
            lock.lock();
            boolean heldOnReturn = lock.isHeldByCurrentThread();
            lock.unlock();
            return heldOnReturn;
        });
        late.awaitEntered();
        long sentBefore = System.nanoTime();
        // the reply is held back past what a reply may take and still count (about 354 ms of the 400 ms lease): a
        // controlled delay, timed from a moment after the send
        long delay = TimeUnit.MILLISECONDS.toNanos(450);
        awaitUntil(() -> System.nanoTime() - sentBefore > delay);
        AtomicLong retriedAt = new AtomicLong();
        store.next(Op.ACQUIRE, "job").runFirst(() -> retriedAt.set(System.nanoTime()));
        long answeredAfter = System.nanoTime();

        late.proceed();

        assertThat(locking.get()).as("acquired by the next try, and held when lock() returned").isTrue();
        assertThat(store.calls(Op.ACQUIRE, "job")).as("one try after the late reply").isEqualTo(2);
        assertThat(store.calls(Op.ABANDON, "job")).as("the late reply's token given up").isOne();
        assertThat(retriedAt.get() - answeredAfter).as("pause before the next try, in ns")
                .isGreaterThanOrEqualTo(answeredAfter - sentBefore);
        assertThat(events.lost).isEmpty();
    }

    /** Case 6 with no wait: the one try came too late, so the call returns false and leaves nothing behind. */
    @Test
    void aSingleTryWhoseReplyCameTooLateReturnsFalseAndLeavesNothingLocked() throws Exception {
        FencedLock lock = registries.process(events).obtain("job", Lease.fixed(Duration.ofMillis(300)));
        ScriptedCall late = store.next(Op.ACQUIRE, "job").holdAfterRunning();
        Background<Boolean> trying = new Background<>("tryer", lock::tryLock);
        late.awaitEntered();
        awaitUntil(() -> store.backend().isLocked("job"));
        awaitUntil(() -> !store.backend().isLocked("job"));
        // meanwhile someone else took the lock: the late reply must not count as this caller's
        FencedLock other = registries.process(new Events()).obtain("job", Lease.fixed(Duration.ofSeconds(30)));
        assertThat(other.tryLock()).isTrue();

        late.proceed();

        assertThat(trying.get()).isFalse();
        assertThat(events.lost).isEmpty();
        assertThat(store.backend().inspect("job").ownerToken()).as("the other holder's key is untouched").isNotNull();
        other.unlock();
    }

    /** Case 5: when the wait runs out between polls, leaving the queue is the one command after it. */
    @Test
    void aTimedWaitLeavesTheQueueWithoutAnotherPollWhenItRunsOut() throws Exception {
        FencedLock holder = heldByAnotherProcess();
        FencedLock lock = waiterPolling(Duration.ofSeconds(5));

        long before = store.calls(Op.ACQUIRE, "job");

        assertThat(lock.tryLock(Duration.ofMillis(300))).isFalse();

        assertThat(store.calls(Op.ACQUIRE, "job") - before).as("the first try only").isOne();
        assertThat(store.calls(Op.LEAVE, "job")).isOne();
        assertThat(store.backend().inspect("job").waiting()).isZero();
        holder.unlock();
    }

    /** Case 5: a poll that hangs past the wait ends the call when it answers; the queue is left behind it. */
    @Test
    void aPollThatAnswersAfterTheWaitEndsTheCallAndTheCleanUpLeavesTheQueue() throws Exception {
        FencedLock holder = heldByAnotherProcess();
        FencedLock lock = waiterPolling(Duration.ofMillis(50));
        store.next(Op.ACQUIRE, "job").runFirst(() -> { }); // the first try goes through: the name is held
        ScriptedCall hanging = store.next(Op.ACQUIRE, "job").holdBeforeRunning();
        long start = System.nanoTime();
        // the wait leaves room for the first poll (due after 50 ms) on a loaded machine: 300 ms was once too little
        Background<Boolean> trying = new Background<>("tryer", () -> lock.tryLock(Duration.ofMillis(1000)));
        hanging.awaitEntered();
        awaitUntil(() -> System.nanoTime() - start > TimeUnit.MILLISECONDS.toNanos(1100)); // past the wait

        hanging.proceed();

        assertThat(trying.get()).isFalse();
        assertThat(store.calls(Op.LEAVE, "job")).as("no command after the late answer").isZero();
        awaitUntil(() -> store.backend().inspect("job").waiting() == 0);
        holder.unlock();
    }

    /** Case 7: the name was held, then every try met a transient error until the wait ran out. */
    @Test
    void transientErrorsAfterTheNameWasSeenHeldEndTheWaitAsATimeout() throws Exception {
        FencedLock holder = heldByAnotherProcess();
        FencedLock lock = waiterPolling(Duration.ofMillis(50));
        // the first try answers "held"; every later one is refused (a slot migration that outlasts the wait)
        store.next(Op.ACQUIRE, "job").runFirst(
                () -> store.every(Op.ACQUIRE, "job").fail(new TransientFailure("TRYAGAIN slot migrating")));

        assertThat(lock.tryLock(Duration.ofMillis(700))).isFalse();

        assertThat(store.calls(Op.ACQUIRE, "job")).isGreaterThan(2);
        assertThat(events.acquireFailed).singleElement()
                .satisfies(event -> assertThat(event.error()).as("a timeout, not an error").isNull());
        holder.unlock();
    }

    /** Case 8: a replica refuses every write; {@code lock()} keeps waiting, and says so once. */
    @Test
    void aRefusalThatLastsIsReportedOnceWhileLockKeepsWaiting() throws Exception {
        FencedLock lock = registries.process(events).obtain("job");
        ScriptedCall refusing = store.every(Op.ACQUIRE, "job")
                .fail(new TransientFailure("READONLY You can't write against a read only replica."));
        Background<Boolean> locking = new Background<>("locker", () -> {
            lock.lock();
            boolean held = lock.isHeldByCurrentThread();
            lock.unlock();
            return held;
        });
        awaitUntil(() -> !events.acquireRetrying.isEmpty());
        awaitUntil(() -> store.calls(Op.ACQUIRE, "job") > 20); // still trying after it was reported

        refusing.disarm();

        assertThat(locking.get()).isTrue();
        assertThat(events.acquireRetrying).singleElement().satisfies(event -> {
            assertThat(event.lockName()).isEqualTo("job");
            assertThat(event.error()).hasMessageContaining("READONLY");
            assertThat(event.elapsed()).isGreaterThanOrEqualTo(Duration.ofSeconds(1));
        });
        assertThat(events.acquireFailed).isEmpty();
    }

    /** "job", held by another process. */
    private FencedLock heldByAnotherProcess() {
        FencedLock holder = registries.process(new Events()).obtain("job");
        assertThat(holder.tryLock()).isTrue();
        return holder;
    }

    /** "job" in a process whose waiters ask the store again every {@code poll} when they hear no hand-off. */
    private FencedLock waiterPolling(Duration poll) {
        return registries.process(events, settings -> settings.maxPollInterval(poll)).obtain("job");
    }
}
