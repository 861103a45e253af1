package dev.distlock.core.engine.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.spi.AcquireResult;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What an interrupt or a failed try means for an acquisition ({@link TryFailures}). */
@BoundedTest
class TryFailuresTest {

    private final FaultyStore store = new FaultyStore();
    private final List<RuntimeException> reported = new CopyOnWriteArrayList<>();

    @AfterEach
    void clearInterrupt() {
        Thread.interrupted();
    }

    private TryFailures failures(boolean interruptible) {
        return EngineFixtures.tryFailures(store, interruptible, reported::add);
    }

    @Test
    void anInterruptWhileWaitingEndsAnInterruptibleCallAndIsRememberedEitherWay() {
        InterruptedException interrupt = new InterruptedException();

        TryFailures interruptible = failures(true);
        assertThat(interruptible.wasInterrupted()).isFalse();
        InterruptedException error = interruptible.waitInterrupted(interrupt);
        assertThat(error).hasMessage("Interrupted while acquiring lock '" + EngineFixtures.NAME + "'")
                .hasCause(interrupt);
        // remembered too: should a step queued before the interrupt's take the lock, the caller still hears of it
        assertThat(interruptible.wasInterrupted()).isTrue();

        TryFailures uninterruptible = failures(false);
        assertThat(uninterruptible.waitInterrupted(interrupt)).isNull();
        assertThat(uninterruptible.wasInterrupted()).isTrue();
    }

    @Test
    void aPendingInterruptBeforeATryEndsAnInterruptibleCallAndIsRememberedByAnUninterruptibleOne()
            throws Exception {
        TryFailures interruptible = failures(true);
        interruptible.beforeTry();
        Thread.currentThread().interrupt();
        assertThatThrownBy(interruptible::beforeTry).isInstanceOf(InterruptedException.class)
                .hasMessageContaining(EngineFixtures.NAME);
        assertThat(Thread.currentThread().isInterrupted()).as("consumed").isFalse();

        TryFailures uninterruptible = failures(false);
        uninterruptible.beforeTry();
        assertThat(uninterruptible.wasInterrupted()).isFalse();
        Thread.currentThread().interrupt();
        uninterruptible.beforeTry();
        assertThat(uninterruptible.wasInterrupted()).isTrue();
    }

    @Test
    void aTryBrokenByAnInterruptEndsAnInterruptibleCallAndRestartsAnUninterruptibleOne() throws Exception {
        RuntimeException broken = new RuntimeException(new InterruptedException());

        assertThatThrownBy(() -> failures(true).classified(broken, Long.MAX_VALUE))
                .isInstanceOf(InterruptedException.class).hasCause(broken)
                .hasMessageContaining("cleaned up in the background");
        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> failures(true).classified(new FaultyStore.Failed("x"), Long.MAX_VALUE))
                .isInstanceOf(InterruptedException.class);

        TryFailures uninterruptible = failures(false);
        assertThat(uninterruptible.classified(broken, Long.MAX_VALUE)).isSameAs(TryFailures.Restart.INSTANCE);
        assertThat(uninterruptible.wasInterrupted()).isTrue();
    }

    @Test
    void aTransientFailureIsRetriedWhileTheWaitLastsAfterAPause() throws Exception {
        TryFailures failures = failures(true);

        assertThat(failures.takePause()).isZero();
        assertThat(failures.classified(new FaultyStore.Failed("x"), Long.MAX_VALUE))
                .isSameAs(TryFailures.Restart.INSTANCE);
        assertThat(failures.takePause()).isPositive();
        assertThat(failures.classified(new FaultyStore.Refused("x"), 1)).isSameAs(TryFailures.Restart.INSTANCE);
        assertThat(failures.takePause()).isEqualTo(1);
    }

    @Test
    void aTransientFailureAfterTheWaitIsATimeoutIfTheNameWasSeenHeldElseAnError() throws Exception {
        TryFailures neverSawIt = failures(true);
        RuntimeException failed = new FaultyStore.Failed("x");
        assertThat(neverSawIt.classified(failed, 0)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining(EngineFixtures.NAME).hasCause(failed);

        TryFailures sawHeld = failures(true);
        sawHeld.answered(AcquireResult.busy(1_000, 0));
        assertThat(sawHeld.classified(failed, 0)).isSameAs(TryFailures.OutOfTime.INSTANCE);

        TryFailures sawItFree = failures(true);
        sawItFree.answered(AcquireResult.acquired(1, 0));
        assertThat(sawItFree.classified(failed, 0)).isInstanceOf(LockBackendException.class);
    }

    @Test
    void aPermanentFailureIsAnErrorWhateverIsLeftOfTheWait() throws Exception {
        TryFailures failures = failures(true);
        failures.answered(AcquireResult.busy(1_000, 0));
        IllegalStateException permanent = new IllegalStateException("NOSCRIPT");

        assertThat(failures.classified(permanent, Long.MAX_VALUE)).isInstanceOf(LockBackendException.class)
                .hasCause(permanent);
        assertThat(failures.takePause()).isZero();
        java.io.IOException checked = new java.io.IOException("checked");
        assertThat(failures.classified(checked, Long.MAX_VALUE)).isInstanceOf(LockBackendException.class);
    }

    @Test
    void aFailedCarrierOfATrySentForTheCallRestartsItWhileTheWaitLastsAndNeverCountsAsItsOwn() {
        TryFailures failures = failures(false);

        assertThat(failures.carrierFailed(1)).isSameAs(TryFailures.Restart.INSTANCE);
        assertThat(failures.carrierFailed(0)).isSameAs(TryFailures.OutOfTime.INSTANCE);
        assertThat(failures.carrierFailed(-1)).isSameAs(TryFailures.OutOfTime.INSTANCE);
        assertThat(failures.wasInterrupted()).isFalse();
        assertThat(failures.takePause()).isZero();
    }

    @Test
    void anInterruptThatRacedWithATakenLockEndsAnInterruptibleCallAndTheLockIsGivenBack() throws Exception {
        AcquireResult taken = AcquireResult.acquired(5, 0);
        assertThat(failures(true).answered(taken)).isSameAs(taken);

        Thread.currentThread().interrupt();
        assertThatThrownBy(() -> failures(true).answered(taken)).isInstanceOf(InterruptedException.class)
                .hasMessageContaining("released again");

        Thread.currentThread().interrupt();
        assertThat(failures(false).answered(taken)).isSameAs(taken);
        assertThat(Thread.interrupted()).as("left for the uninterruptible caller").isTrue();

        Thread.currentThread().interrupt();
        AcquireResult busy = AcquireResult.busy(1, 0);
        assertThat(failures(true).answered(busy)).isSameAs(busy);
        assertThat(Thread.interrupted()).as("a busy answer leaves it for the next step").isTrue();
    }

    @Test
    void anAnswerEndsAStreakOfTransientErrors() throws Exception {
        TryFailures failures = failures(true);
        failures.classified(new FaultyStore.Failed("x"), Long.MAX_VALUE);
        failures.answered(AcquireResult.busy(1, 0));
        assertThat(reported).isEmpty();
    }
}
