package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.CommandTimeout;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A lock on several names that does not get them all: what it took is given back once, without waiting for the
 * backend, and only what this call took. The thread already holds {@code x0}, so the set re-enters it; it takes
 * {@code x1} anew, then waits for {@code x2}, which another process holds.
 */
class MultiNameFaultsTest extends ScriptedStoreTest {

    private ScriptedLockRegistry mine;
    private FencedLock x0;
    private FencedLock set;
    private FencedLock x2Elsewhere;

    @BeforeEach
    void x2HeldByAnotherProcess() {
        mine = registries.process(events);
        x0 = mine.obtain("x0");
        set = mine.obtainAll(List.of("x2", "x0", "x1"));
        x2Elsewhere = registries.process(new Events()).obtain("x2");
        assertThat(x2Elsewhere.tryLock()).isTrue();
    }

    /**
     * {@code x1}'s key is deleted while the set waits for {@code x2}: at the timeout its give-back finds it lost. The
     * call still answers false, and gives {@code x0} back only the count it added: the outer hold stays held.
     */
    @Test
    void aNameLostWhileTheSetWaitsIsGivenBackOnceAndTheReenteredNameStaysHeld() throws Exception {
        x0.lock();
        store.next(Op.ACQUIRE, "x2").runFirst(() -> deleteKey("x1"));

        assertThat(set.tryLock(Duration.ofMillis(300))).as("a timeout, whatever the give-back found").isFalse();

        assertThat(x0.holdCount()).as("the outer hold's count").isOne();
        assertThat(x0.isHeldByCurrentThread()).isTrue();
        assertThat(store.backend().isLocked("x0")).as("the outer hold, still in the store").isTrue();
        assertThat(registries.process(new Events()).obtain("x0").tryLock()).as("another process takes x0").isFalse();
        awaitUntil(() -> lostNames().contains("x1"));
        assertThat(store.calls(Op.RELEASE, "x1")).as("x1 given back once").isOne();
        assertThat(store.calls(Op.RELEASE, "x0")).isZero();

        x0.unlock(); // no IllegalMonitorStateException: the outer hold is still this thread's
        assertThat(store.backend().isLocked("x0")).isFalse();
        assertThat(lostNames()).containsExactly("x1");
        x2Elsewhere.unlock();
    }

    /**
     * Interrupted while waiting for {@code x2} after {@code x1} was lost, with {@code x1}'s release hanging: the call
     * ends with the interrupt at once, and {@code x0} is given back its one count.
     */
    @Test
    void anInterruptedTryLockGivesBackWithoutWaitingForTheRelease() throws Exception {
        interruptedWhileWaitingForTheLastName(() -> set.tryLock(PATIENCE));
    }

    @Test
    void anInterruptedLockInterruptiblyGivesBackWithoutWaitingForTheRelease() throws Exception {
        interruptedWhileWaitingForTheLastName(() -> {
            set.lockInterruptibly();
            return true;
        });
    }

    private void interruptedWhileWaitingForTheLastName(Acquire acquire) throws Exception {
        ScriptedCall firstTryOfX2 = store.next(Op.ACQUIRE, "x2").runFirst(() -> deleteKey("x1"));
        ScriptedCall releaseOfX1 = store.next(Op.RELEASE, "x1").holdBeforeRunning();
        Background<String> caller = new Background<>("set-locker", () -> {
            x0.lock();
            try {
                return "acquired: " + acquire.call();
            } catch (InterruptedException expected) {
                String seen = "interrupted; x0 count " + x0.holdCount() + ", held " + x0.isHeldByCurrentThread()
                        + ", in the store " + store.backend().isLocked("x0");
                x0.unlock();
                return seen;
            }
        });
        firstTryOfX2.awaitDone();
        caller.interruptWhenBlocked();

        awaitUntil(caller::isDone); // while x1's release still hangs

        assertThat(caller.get()).isEqualTo("interrupted; x0 count 1, held true, in the store true");
        assertThat(releasesOfX1On(caller.thread())).as("x1 released in the background").isZero();
        releaseOfX1.proceed();
        awaitUntil(() -> lostNames().contains("x1"));
        assertThat(store.calls(Op.RELEASE, "x1")).isOne();
        assertThat(store.backend().isLocked("x0")).isFalse();
        x2Elsewhere.unlock();
    }

    /** {@code lock()} ends with the backend's failure on {@code x2} at once, though {@code x1}'s release hangs. */
    @Test
    void aFailedLockGivesBackWithoutWaitingForTheRelease() throws Exception {
        x2Elsewhere.unlock();
        store.next(Op.ACQUIRE, "x2").fail(new IllegalStateException("ERR scripted failure on x2"));
        ScriptedCall releaseOfX1 = store.next(Op.RELEASE, "x1").holdBeforeRunning();
        Background<String> caller = new Background<>("set-locker", () -> {
            x0.lock();
            try {
                set.lock();
                return "acquired";
            } catch (LockBackendException expected) {
                String seen = expected.getMessage() + "; x0 count " + x0.holdCount() + ", in the store "
                        + store.backend().isLocked("x0");
                x0.unlock();
                return seen;
            }
        });

        awaitUntil(caller::isDone); // while x1's release still hangs

        assertThat(caller.get()).contains("x2").contains("ERR scripted failure on x2")
                .endsWith("; x0 count 1, in the store true");
        releaseOfX1.proceed();
        awaitUntil(() -> !store.backend().isLocked("x1"));
        assertThat(store.calls(Op.RELEASE, "x1")).isOne();
        assertThat(events.lost).isEmpty();
    }

    /**
     * The backend hangs once the set has its first name: the call answers false when its wait is over, not a command
     * timeout per name later; the release that got no answer is reported and finished in the background.
     */
    @Test
    void aTimeoutReturnsFalseWhileTheGiveBackHangsAndItsFailureIsReportedNotThrown() throws Exception {
        ScriptedCall releaseOfX1 = store.next(Op.RELEASE, "x1").holdBeforeRunning();
        FencedLock pair = mine.obtainAll(List.of("x1", "x2"));
        Background<Boolean> caller = new Background<>("set-locker", () -> pair.tryLock(Duration.ofMillis(300)));

        awaitUntil(caller::isDone); // while x1's release still hangs

        assertThat(caller.get()).isFalse();
        assertThat(releasesOfX1On(caller.thread())).as("x1 released in the background").isZero();
        releaseOfX1.failWith(new CommandTimeout("Command timed out after 1 second(s)"));
        awaitUntil(() -> events.releaseFailed.stream().anyMatch(event -> event.lockName().equals("x1")));
        awaitUntil(() -> !store.backend().isLocked("x1")); // the clean-up's abandon
        assertThat(store.calls(Op.ABANDON, "x1")).isPositive();
        assertThat(events.lost).isEmpty();
        x2Elsewhere.unlock();
    }

    /** The same without blocking a thread: the future completes with none while the give-back hangs. */
    @Test
    void anAsyncTimeoutCompletesWithNoneWhileTheGiveBackHangs() throws Exception {
        ScriptedCall releaseOfX1 = store.next(Op.RELEASE, "x1").holdBeforeRunning();
        FencedLock pair = mine.obtainAll(List.of("x1", "x2"));

        CompletableFuture<DetachedLock> trying = pair.tryLockAsync(Duration.ofMillis(300)).toCompletableFuture();

        assertThat(trying.get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS)).isNull();
        releaseOfX1.awaitEntered();
        releaseOfX1.failWith(new CommandTimeout("Command timed out after 1 second(s)"));
        awaitUntil(() -> events.releaseFailed.stream().anyMatch(event -> event.lockName().equals("x1")));
        awaitUntil(() -> !store.backend().isLocked("x1"));
        x2Elsewhere.unlock();
    }

    /**
     * The first name's fixed lease runs out while the set waits for the second: the set never answers with a name
     * it no longer holds. It gives back what it took and takes the names again, in order, within its wait.
     */
    @Test
    void aNameWhoseFixedLeaseRanOutWhileTheSetWaitedIsTakenAgain() throws Exception {
        FencedLock pair = mine.obtainAll(List.of("x1", "x2"), Lease.fixed(Duration.ofMillis(100)), null);
        ScriptedCall firstTryOfX2 = store.next(Op.ACQUIRE, "x2").runFirst(() -> { });
        Background<String> caller = new Background<>("set-locker", () -> {
            if (!pair.tryLock(PATIENCE)) {
                return "timed out";
            }
            String seen = "held " + pair.isHeldByCurrentThread() + ", tokens " + pair.fencingTokens().size();
            pair.unlock();
            return seen;
        });
        firstTryOfX2.awaitDone();
        awaitUntil(() -> !store.backend().isLocked("x1")); // its lease ran out in the store too

        x2Elsewhere.unlock();

        assertThat(caller.get()).isEqualTo("held true, tokens 2");
        assertThat(store.calls(Op.ACQUIRE, "x1")).as("x1 taken again after it ran out").isGreaterThanOrEqualTo(2);
    }

    /**
     * A set whose first name another process hands on holds it first on the hand-off's short claim, which its
     * confirmation makes the full lease: the set is answered as it is, not given back and taken again as if that
     * claim were a lease running out.
     */
    @Test
    void aSetWhoseNameIsHandedOnIsAnsweredWithoutTakingItAgain() throws Exception {
        FencedLock first = registries.process(new Events()).obtainAll(List.of("y1", "y2"));
        first.lock();
        Background<Boolean> next = new Background<>("next-set", () -> {
            FencedLock both = mine.obtainAll(List.of("y1", "y2"));
            if (!both.tryLock(PATIENCE)) {
                return false;
            }
            both.unlock();
            return true;
        });
        awaitUntil(() -> store.backend().waitersQueued("y1") == 1);

        first.unlock();

        assertThat(next.get()).isTrue();
        assertThat(store.calls(Op.ACQUIRE, "y1")).as("tries of y1: the first set's, the next one's queued try")
                .isEqualTo(2);
        assertThat(store.calls(Op.RELEASE, "y1")).as("releases of y1: one per set").isEqualTo(2);
    }

    /** Deletes {@code name}'s key whoever holds it, as an operator or an eviction would. */
    private void deleteKey(String name) {
        store.backend().delete(name);
    }

    private long releasesOfX1On(Thread thread) {
        return store.recorded().stream()
                .filter(call -> call.op() == Op.RELEASE && call.name().equals("x1") && call.thread() == thread).count();
    }

    private List<String> lostNames() {
        return events.lost.stream().map(LockEvent::lockName).toList();
    }

    @FunctionalInterface
    private interface Acquire {
        boolean call() throws InterruptedException;
    }
}
