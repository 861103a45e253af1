package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A hold's end and its lease changes against a store in memory ({@link HoldLifecycle}, {@link HoldLeases}): who
 * owns the name in the store decides, never the hold alone; a passed deadline is a loss; a loss is reported once.
 * Every wait is bounded and fails with what it waited for.
 */
@BoundedTest
class HoldLifecycleTest {

    private static final long LEASE = 30_000;

    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Engine engine = EngineFixtures.engine(store);

    @AfterEach
    void close() {
        engine.close();
    }

    private static <T> T within5s(CompletableFuture<T> future, String what) throws Exception {
        try {
            return future.get(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException timeout) {
            throw new AssertionError(what + " did not complete within 5 s", timeout);
        }
    }

    private static Throwable failureWithin5s(CompletableFuture<?> future, String what) throws Exception {
        try {
            future.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException failed) {
            return failed.getCause();
        } catch (java.util.concurrent.TimeoutException timeout) {
            throw new AssertionError(what + " did not complete within 5 s", timeout);
        }
        throw new AssertionError(what + " completed normally; a failure was expected");
    }

    /** Waits (bounded) until the store no longer holds {@code name}: a background clean-up's work. */
    private void awaitFreed(String name) throws InterruptedException {
        EngineFixtures.awaitTrue(() -> !store.isLocked(name), "'" + name + "' freed in the store");
    }

    @Test
    void aReleaseFreesTheNameAndIsHeardAsAReleaseOnce() {
        Hold hold = engine.acquired("a", "t1", LEASE);

        engine.holds.release(hold, 0);

        assertThat(store.isLocked("a")).isFalse();
        assertThat(hold.isActive()).isFalse();
        assertThat(engine.heard.kinds).containsExactly("released");
        assertThat(engine.names.size()).as("the name's state is dropped").isZero();
    }

    @Test
    void aReleaseThatFindsAnotherOwnerIsALossAndLeavesTheOtherOwnersLock() {
        Hold hold = engine.acquired("a", "t1", LEASE);
        store.memory.overwrite("a", "intruder");

        assertThatThrownBy(() -> engine.holds.release(hold, 0)).isInstanceOf(LockLostException.class)
                .hasMessageContaining("no longer holds it under this hold's token");

        assertThat(store.memory.inspect("a").ownerToken()).isEqualTo("intruder");
        assertThat(engine.heard.kinds).containsExactly("lost");
        assertThat(engine.names.size()).isZero();
    }

    @Test
    void anAsyncReleaseThatFindsAnotherOwnerFailsAsALoss() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        store.memory.overwrite("a", "intruder");

        Throwable failure = failureWithin5s(engine.holds.releaseAsync(hold, 0).toCompletableFuture(),
                "the release");

        assertThat(failure).isInstanceOf(LockLostException.class)
                .hasMessageContaining("no longer holds it under this hold's token");
        assertThat(store.memory.inspect("a").ownerToken()).isEqualTo("intruder");
        assertThat(engine.heard.kinds).containsExactly("lost");
    }

    @Test
    void anAsyncReleaseFreesTheNameAndEndsTheHoldBeforeItCompletes() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);

        within5s(engine.holds.releaseAsync(hold, 0).toCompletableFuture(), "the release");

        assertThat(store.isLocked("a")).isFalse();
        assertThat(engine.heard.kinds).containsExactly("released");
        assertThat(engine.names.size()).isZero();
    }

    @Test
    void aReleaseRefusedByTheStoreIsSentAgainUntilItRuns() throws Exception {
        Hold blocking = engine.acquired("a", "t1", LEASE);
        store.refuseReleases.set(2);
        engine.holds.release(blocking, 0);
        assertThat(store.isLocked("a")).isFalse();

        Hold async = engine.acquired("b", "t2", LEASE);
        store.refuseReleases.set(2);
        within5s(engine.holds.releaseAsync(async, 0).toCompletableFuture(), "the release");
        assertThat(store.isLocked("b")).isFalse();
        assertThat(store.sent).filteredOn(command -> command.startsWith("release b")).hasSize(3);
        assertThat(engine.heard.kinds).containsExactly("released", "released");
    }

    @Test
    void aBlockingReleaseByAnInterruptedCallerIsSentAgainWhileRefusedAndKeepsTheInterrupt() {
        Hold hold = engine.acquired("a", "t1", LEASE);
        store.refuseReleases.set(2);

        Thread.currentThread().interrupt();
        try {
            engine.holds.release(hold, 0);
        } finally {
            assertThat(Thread.interrupted()).as("the caller's interrupt kept").isTrue();
        }

        assertThat(store.isLocked("a")).isFalse();
        assertThat(store.sent).filteredOn(command -> command.startsWith("release a")).hasSize(3);
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void aReleaseAfterTheDeadlineIsALossWhateverTheStoreSays() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE, EngineFixtures.now() - 1);

        assertThatThrownBy(() -> engine.holds.release(hold, 0)).isInstanceOf(LockLostException.class)
                .hasMessageContaining("no renewal of its lease");

        assertThat(engine.heard.kinds).containsExactly("lost");
        awaitFreed("a"); // cleaned up in case the key is still there
        assertThat(engine.names.size()).isZero();

        Hold async = engine.acquired("b", "t2", LEASE, EngineFixtures.now() - 1);
        assertThat(failureWithin5s(engine.holds.releaseAsync(async, 0).toCompletableFuture(), "the release"))
                .isInstanceOf(LockLostException.class);
        awaitFreed("b");
    }

    @Test
    void aHoldFoundLostBeforeItsReleaseFailsTheReleaseWithTheReasonAndIsNotReportedAgain() {
        Hold hold = engine.acquired("a", "t1", LEASE);
        engine.holds.lose(hold, "it was taken");
        engine.holds.lose(hold, "again");

        assertThatThrownBy(() -> engine.holds.release(hold, 0)).isInstanceOf(LockLostException.class)
                .hasMessageContaining("it was taken");
        assertThat(engine.heard.kinds).containsExactly("lost");
    }

    @Test
    void aLossGivesTheGateBackAndCleansTheKeyUp() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        NameGate.Waiting next = hold.state.gate.enter(null);

        engine.holds.lose(hold, "gone");

        assertThat(hold.isActive()).isFalse();
        assertThat(hold.lostReason()).isEqualTo("gone");
        within5s(next.entry, "the next caller's entry at the gate");
        awaitFreed("a");
        assertThat(engine.heard.kinds).containsExactly("lost");
        assertThat(engine.heard.events.get(0).error()).isInstanceOf(LockLostException.class)
                .hasMessageContaining("gone");
    }

    @Test
    void aPassedDeadlineIsNoticedAsALossWhenAskedAndReentryFails() {
        Hold hold = engine.acquired("a", "t1", LEASE, EngineFixtures.now() - 1);

        assertThat(engine.holds.stillHeld(hold)).isFalse();
        assertThat(hold.isActive()).isFalse();
        assertThatThrownBy(() -> engine.holds.requireHeld(hold)).isInstanceOf(LockLostException.class);
        assertThat(engine.heard.kinds).containsExactly("lost");

        Hold live = engine.acquired("b", "t2", LEASE);
        assertThat(engine.holds.stillHeld(live)).isTrue();
        engine.holds.requireHeld(live);
        assertThat(live.isActive()).isTrue();
    }

    @Test
    void anExtendCannotReviveAHoldWhoseDeadlinePassed() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE, EngineFixtures.now() - 1);

        assertThatThrownBy(() -> engine.extend(hold, Duration.ofMinutes(5)))
                .isInstanceOf(LockLostException.class);
        assertThat(failureWithin5s(engine.leases.extend(hold, Duration.ofMinutes(5), engine.holds.nonBlocking()).toCompletableFuture(),
                "the extend")).isInstanceOf(LockLostException.class);

        assertThat(store.sent).noneMatch(command -> command.startsWith("extend"));
        assertThat(hold.isActive()).isFalse();
        assertThat(hold.validUntilNanos()).isLessThan(EngineFixtures.now());
        awaitFreed("a");
    }

    @Test
    void anExtendSetsTheStoresLeaseAndTheHoldsDeadlineFromItsSend() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        long before = EngineFixtures.now();

        engine.extend(hold, Duration.ofMinutes(5));

        long after = EngineFixtures.now();
        assertThat(hold.leaseMillis()).isEqualTo(300_000);
        assertThat(hold.validUntilNanos()).isBetween(HoldClock.validUntil(before, 300_000),
                HoldClock.validUntil(after, 300_000));
        assertThat(store.remainingLeaseMillis("a", "t1")).isGreaterThan(LEASE);

        within5s(engine.leases.extend(hold, Duration.ofSeconds(1), engine.holds.nonBlocking()).toCompletableFuture(), "the extend");
        assertThat(hold.leaseMillis()).isEqualTo(1_000);
        assertThat(hold.validUntilNanos()).isLessThanOrEqualTo(HoldClock.validUntil(EngineFixtures.now(), 1_000));
        assertThat(store.remainingLeaseMillis("a", "t1")).isBetween(1L, 1_000L);
    }

    @Test
    void anExtendThatFindsAnotherOwnerIsALoss() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        store.memory.overwrite("a", "intruder");

        assertThatThrownBy(() -> engine.extend(hold, Duration.ofMinutes(5)))
                .isInstanceOf(LockLostException.class).hasMessageContaining("extend found");
        assertThat(hold.isActive()).isFalse();
        assertThat(engine.heard.kinds).containsExactly("lost");

        Hold async = engine.acquired("b", "t2", LEASE);
        store.memory.overwrite("b", "intruder");
        assertThat(failureWithin5s(engine.leases.extend(async, Duration.ofMinutes(5), engine.holds.nonBlocking()).toCompletableFuture(),
                "the extend")).isInstanceOf(LockLostException.class).hasMessageContaining("extend found");
        assertThat(async.isActive()).isFalse();
        assertThat(store.memory.inspect("b").ownerToken()).isEqualTo("intruder");
    }

    @Test
    void anExtendWithoutAnAnswerKeepsTheShorterOfTheOldAndNewLease() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE, EngineFixtures.now() + TimeUnit.SECONDS.toNanos(10));
        long deadline = hold.validUntilNanos();
        store.failExtends.set(2);

        assertThatThrownBy(() -> engine.extend(hold, Duration.ofMinutes(5)))
                .isInstanceOf(LockBackendException.class);
        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
        assertThat(hold.isActive()).isTrue();

        long before = EngineFixtures.now();
        assertThat(failureWithin5s(engine.leases.extend(hold, Duration.ofSeconds(1), engine.holds.nonBlocking()).toCompletableFuture(),
                "the extend")).isInstanceOf(LockBackendException.class);
        assertThat(hold.validUntilNanos()).isBetween(HoldClock.validUntil(before, 1_000),
                HoldClock.validUntil(EngineFixtures.now(), 1_000));
    }

    @Test
    void theRemainingLeaseIsTheStoresCappedByTheLocalDeadlineAndZeroOnceLost() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE, EngineFixtures.now() + TimeUnit.SECONDS.toNanos(2));

        assertThat(engine.remainingLease(hold)).isBetween(Duration.ofMillis(1), Duration.ofSeconds(2));
        assertThat(within5s(engine.leases.remainingLease(hold, engine.holds.nonBlocking()).toCompletableFuture(), "the lease read"))
                .isBetween(Duration.ofMillis(1), Duration.ofSeconds(2));
        engine.verify(hold);
        within5s(engine.leases.verify(hold, engine.holds.nonBlocking()).toCompletableFuture(), "the check");

        store.memory.overwrite("a", "intruder");
        assertThat(within5s(engine.leases.remainingLease(hold, engine.holds.nonBlocking()).toCompletableFuture(), "the lease read"))
                .isZero();
        assertThat(hold.isActive()).isFalse();
        assertThat(engine.remainingLease(hold)).isZero();
        assertThatThrownBy(() -> engine.verify(hold)).isInstanceOf(LockLostException.class);
        assertThat(failureWithin5s(engine.leases.verify(hold, engine.holds.nonBlocking()).toCompletableFuture(), "the check"))
                .isInstanceOf(LockLostException.class);
        assertThat(engine.heard.kinds).containsExactly("lost");

        Hold other = engine.acquired("b", "t2", LEASE);
        store.memory.overwrite("b", "intruder");
        assertThat(engine.remainingLease(other)).isZero();
        assertThat(other.isActive()).isFalse();
    }

    private int timerTasks() {
        return ((java.util.concurrent.ScheduledThreadPoolExecutor) engine.timer()).getQueue().size();
    }

    @Test
    void aReleasedOrLostHoldIsNoLongerWatchedAndLeavesItsNameState() {
        int idle = timerTasks();
        Hold released = engine.acquired("a", "t1", LEASE);
        engine.holds.watchdog().watch(released);
        assertThat(timerTasks()).isEqualTo(idle + 1);

        engine.holds.release(released, 0);

        assertThat(timerTasks()).as("its look cancelled").isEqualTo(idle);
        java.util.List<Hold> left = new java.util.ArrayList<>();
        released.state.addHoldsTo(left);
        assertThat(left).isEmpty();

        Hold lost = engine.acquired("b", "t2", LEASE);
        engine.holds.watchdog().watch(lost);
        engine.holds.lose(lost, "gone");
        assertThat(timerTasks()).as("its look cancelled").isEqualTo(idle);
    }

    @Test
    void anAsyncReleaseOfALostHoldFailsAndGivesTheGateBack() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        NameGate.Waiting next = hold.state.gate.enter(null);
        hold.markLost("taken");

        assertThat(failureWithin5s(engine.holds.releaseAsync(hold, 0).toCompletableFuture(), "the release"))
                .isInstanceOf(LockLostException.class).hasMessageContaining("taken");
        assertThat(next.entry).as("the gate given back").isDone();
        assertThat(engine.names.size()).isZero();
    }

    @Test
    void aReleaseWithoutAnAnswerIsRetriedInTheBackgroundAndTheGateGoesOn() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        NameGate.Waiting next = hold.state.gate.enter(null);
        store.failReleases.set(1);

        assertThat(failureWithin5s(engine.holds.releaseAsync(hold, 0).toCompletableFuture(), "the release"))
                .isInstanceOf(LockBackendException.class).hasMessageContaining("retried in the background");

        assertThat(next.entry).as("the gate goes on").isDone();
        assertThat(engine.heard.kinds).containsExactly("releaseFailed");
        awaitFreed("a");

        Hold blocking = engine.acquired("b", "t2", LEASE);
        store.failReleases.set(1);
        assertThatThrownBy(() -> engine.holds.release(blocking, 0)).isInstanceOf(LockBackendException.class);
        awaitFreed("b");
        assertThat(engine.names.size()).isZero();
    }

    @Test
    void anExtendedLeaseIsWatchedFromItsNewDeadline() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        engine.holds.watchdog().watch(hold); // its look due in an hour

        engine.extend(hold, Duration.ofMillis(300)); // renewed every 100ms from now
        store.memory.delete("a");

        EngineFixtures.awaitTrue(() -> engine.heard.kinds.contains("lost"), "the loss found by the next renewal");
        assertThat(hold.lostReason()).contains("renewal found");
    }

    @Test
    void anExtendWithoutAnAnswerIsWatchedFromTheShorterDeadline() throws Exception {
        Hold hold = engine.acquired("a", "t1", LEASE);
        engine.holds.watchdog().watch(hold); // its look due in an hour
        store.failExtends.set(1);

        assertThatThrownBy(() -> engine.extend(hold, Duration.ofMillis(300)))
                .isInstanceOf(LockBackendException.class);

        EngineFixtures.awaitTrue(() -> engine.heard.kinds.contains("lost"), "the loss by the shorter deadline");
    }
}
