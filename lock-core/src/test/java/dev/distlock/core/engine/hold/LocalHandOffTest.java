package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.spi.AcquireResult;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A release that hands its name's gate to the next local caller ({@link LocalHandOff}): exactly one caller is let
 * in, with the answer to the try sent for it when the store passed the lock on, and the others keep waiting at the
 * gate, whether the call was answered, refused or made without waiting.
 */
@BoundedTest
class LocalHandOffTest {

    private static final long LEASE = 30_000;

    private final FaultyStore store = new FaultyStore(true);
    private final EngineFixtures.Engine engine = EngineFixtures.engine(store);

    @AfterEach
    void close() {
        engine.close();
    }

    /** A caller at the gate, as its predecessor sees it. */
    private record Caller(String firstToken, long leaseMillis, boolean queues) implements NameGate.Caller {

        @Override
        public boolean awaitsPassedTry() {
            return true;
        }
    }

    /** A caller at the gate of a registry that began closing: it waits for no try sent for it. */
    private record CallerOfAClosingRegistry(String firstToken, long leaseMillis, boolean queues)
            implements NameGate.Caller {

        @Override
        public boolean awaitsPassedTry() {
            return false;
        }
    }

    private static void await(CompletableFuture<?> future, String what) throws Exception {
        try {
            future.get(5, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException timeout) {
            throw new AssertionError(what + " did not complete within 5 s", timeout);
        }
    }

    private static AcquireResult answer(NameGate.PassedTry passed) throws Exception {
        return passed.answer().toCompletableFuture().get(5, TimeUnit.SECONDS);
    }

    @Test
    void aReleaseHandsTheGateToTheNextCallerWithTheAnswerToItsTryAndNobodyElse() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));
        long before = EngineFixtures.now();

        engine.holds.release(first, 0);

        await(second.entry, "the second caller's entry");
        NameGate.PassedTry passed = second.passed();
        assertThat(passed).as("the try sent with the release").isNotNull();
        assertThat(passed.sentNanos()).isBetween(before, EngineFixtures.now());
        AcquireResult taken = answer(passed);
        assertThat(taken.acquired()).isTrue();
        assertThat(taken.fencingToken()).isGreaterThan(first.fencingToken);
        assertThat(store.memory.inspect("h").ownerToken()).isEqualTo("b");
        assertThat(store.sent).contains("passOn h a b").noneMatch(command -> command.startsWith("release"));
        assertThat(third.entry).as("the third caller still waits at the gate").isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void anAsyncReleaseHandsTheGateToTheNextCallerWithTheAnswerToItsTryAndNobodyElse() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));

        await(engine.holds.releaseAsync(first, 0).toCompletableFuture(), "the release");

        assertThat(second.entry).isDone();
        assertThat(answer(second.passed()).acquired()).isTrue();
        assertThat(store.memory.inspect("h").ownerToken()).isEqualTo("b");
        assertThat(third.entry).isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void aReleaseWhoseNextCallerFindsItsRegistryClosingSendsNoTryForItAndReleasesAlone() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new CallerOfAClosingRegistry("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));

        engine.holds.release(first, 0);

        await(second.entry, "the second caller's entry");
        assertThat(second.passed()).as("no try sent for it: it is let in to find the registry closed").isNull();
        assertThat(store.isLocked("h")).isFalse();
        assertThat(store.sent).contains("release h a").noneMatch(command -> command.startsWith("passOn"));
        assertThat(third.entry).as("the third caller still waits at the gate").isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void aRefusedHandOffLetsTheNextCallerTryByItselfAndTheGateIsStillOwnedOnce() throws Exception {
        store.refusePassOns.set(1);
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));

        engine.holds.release(first, 0);

        await(second.entry, "the second caller's entry");
        assertThat(store.isLocked("h")).as("released by the plain release sent after the refusal").isFalse();
        assertThat(store.sent).containsSubsequence("passOn h a b", "release h a");
        assertThat(third.entry).as("the third caller still waits at the gate").isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void aRefusedAsyncHandOffLetsTheNextCallerTryByItselfAndTheGateIsStillOwnedOnce() throws Exception {
        store.refusePassOns.set(1);
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));

        await(engine.holds.releaseAsync(first, 0).toCompletableFuture(), "the release");

        assertThat(second.entry).isDone();
        CompletableFuture<AcquireResult> refusedTry = second.passed().answer().toCompletableFuture();
        assertThat(refusedTry).isCompletedExceptionally();
        try {
            refusedTry.get(5, TimeUnit.SECONDS);
        } catch (ExecutionException refused) {
            assertThat(refused.getCause()).isInstanceOf(FaultyStore.Refused.class);
        }
        assertThat(store.isLocked("h")).isFalse();
        assertThat(third.entry).as("the third caller still waits at the gate").isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void withoutAStoreThatPassesOnTheNextCallerIsLetInToSendItsOwnTry() throws Exception {
        FaultyStore store = new FaultyStore(false);
        EngineFixtures.Engine engine = EngineFixtures.engine(store);
        try {
            releaseWithoutPassingOn(store, engine);
        } finally {
            engine.close();
        }
    }

    private static void releaseWithoutPassingOn(FaultyStore store, EngineFixtures.Engine engine) throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        NameGate.Waiting third = first.state.gate.enter(new Caller("c", LEASE, true));

        engine.holds.release(first, 0);

        await(second.entry, "the second caller's entry");
        assertThat(second.passed()).isNull();
        assertThat(store.isLocked("h")).isFalse();
        assertThat(store.sent).noneMatch(command -> command.startsWith("passOn"));
        assertThat(third.entry).isNotDone();
        assertThat(first.state.gate.withdraw(third)).isTrue();
    }

    @Test
    void aReleaseWithNobodyWaitingFreesTheGate() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate gate = first.state.gate;

        engine.holds.release(first, 0);

        assertThat(store.sent).contains("release h a").noneMatch(command -> command.startsWith("passOn"));
        assertThat(gate.enter(new Caller("d", LEASE, true)).entry).as("the gate is free").isDone();
    }

    @Test
    void aReleaseLeftToExpireAfterADelayHandsNothingOnAndLetsTheNextCallerIn() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));

        engine.holds.release(first, 60_000);

        await(second.entry, "the second caller's entry");
        assertThat(second.passed()).isNull();
        assertThat(store.isLocked("h")).as("left to expire").isTrue();
        assertThat(store.remainingLeaseMillis("h", "a")).isBetween(LEASE + 1, 60_000L);
        assertThat(store.sent).contains("extend h a").noneMatch(command -> command.startsWith("passOn"));
    }

    @Test
    void aHandOffThatFindsAnotherOwnerIsALossAndStillLetsTheNextCallerIn() throws Exception {
        Hold first = engine.acquired("h", "a", LEASE);
        NameGate.Waiting second = first.state.gate.enter(new Caller("b", LEASE, true));
        store.memory.overwrite("h", "intruder");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.holds.release(first, 0))
                .isInstanceOf(dev.distlock.core.LockLostException.class);

        await(second.entry, "the second caller's entry");
        assertThat(answer(second.passed()).acquired()).isFalse();
        assertThat(engine.heard.kinds).containsExactly("lost");
    }

    @Test
    void aRefusedHandOffWhoseReleaseFindsAnotherOwnerIsALoss() throws Exception {
        store.refusePassOns.set(1);
        Hold first = engine.acquired("h", "a", LEASE);
        first.state.gate.enter(new Caller("b", LEASE, true));
        store.memory.overwrite("h", "intruder");

        org.assertj.core.api.Assertions.assertThatThrownBy(() -> engine.holds.release(first, 0))
                .isInstanceOf(dev.distlock.core.LockLostException.class);
        assertThat(engine.heard.kinds).containsExactly("lost");
    }
}
