package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.runtime.EngineRuntime;
import dev.distlock.core.engine.runtime.Listeners;
import dev.distlock.core.spi.AsyncLockStore;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * How a release goes on when the store refuses it or an interrupt breaks the caller's wait for its answer
 * ({@link ReleaseSteps}): a refused release is sent again after pauses that grow as an acquisition's do; an
 * interrupted one is sent again without the interrupt (it may have run, so a second send that finds the lock gone is
 * no loss), the caller keeps its interrupt flag, and fails only if no answer comes within the hold's lease.
 */
@BoundedTest
class ReleaseStepsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Engine engine = EngineFixtures.engine(store);

    @AfterEach
    void close() {
        Thread.interrupted();
        CountDownLatch gate = store.laterReleasesWaitFor;
        if (gate != null) {
            gate.countDown();
        }
        engine.close();
    }

    @Test
    void aRefusedReleaseIsSentAgainAfterPausesThatDoubleAsAnAcquisitionsRetriesDo() {
        // the n-th send's pause is the n-th retry's: 5-10 ms, 10-20, 20-40, 40-80
        VirtualRuntime clock = new VirtualRuntime();
        EngineRuntime runtime = new EngineRuntime(clock);
        HoldLifecycle holds = new HoldLifecycle(store.capabilities(), AsyncLockStore.on(store, runtime.calls()),
                AsyncLockStore.onCallingThread(store), new NameTable(), new Listeners(List.of()), runtime, 1_000);
        long fence = store.tryAcquire("r", "t", 30_000, false, 1_000).fencingToken();
        Hold hold = EngineFixtures.hold(runtime, new NameState(), "r", "t", fence, 30_000, false,
                clock.nanoTime() + EngineFixtures.HOUR_NANOS, false, clock.nanoTime() + EngineFixtures.HOUR_NANOS);
        store.refuseReleases.set(4);

        store.clock = clock::nanoTime;

        CompletableFuture<Void> done = holds.releaseAsync(hold, 0).toCompletableFuture();
        for (int ms = 0; ms <= 200 && !done.isDone(); ms++) {
            clock.advance(MS);
        }
        List<Long> sentAt = store.releasedAt;

        assertThat(done).isCompleted();
        assertThat(sentAt).hasSize(5);
        assertThat(sentAt.get(1) - sentAt.get(0)).isBetween(5 * MS, 10 * MS);
        assertThat(sentAt.get(2) - sentAt.get(1)).isBetween(10 * MS, 20 * MS);
        assertThat(sentAt.get(3) - sentAt.get(2)).isBetween(20 * MS, 40 * MS);
        assertThat(sentAt.get(4) - sentAt.get(3)).isBetween(40 * MS, 80 * MS);
        assertThat(store.isLocked("r")).isFalse();
        runtime.close();
    }

    @Test
    void aReleaseWhoseWaitAnInterruptBrokeIsSentAgainAndTheCallerKeepsItsInterrupt() {
        Hold hold = engine.acquired("a", "t1", 30_000);
        store.interruptReleases.set(1);

        engine.holds.release(hold, 0);

        assertThat(Thread.interrupted()).as("the caller's flag, set again").isTrue();
        assertThat(store.count("release a t1")).isEqualTo(2);
        assertThat(store.isLocked("a")).isFalse();
        assertThat(engine.heard.kinds).containsExactly("released");
        assertThat(engine.names.size()).isZero();
    }

    @Test
    void anInterruptedReleaseThatHadRunIsNoLossWhenItsSecondSendFindsTheLockGone() {
        // the first send freed the lock: "not held" is its doing
        Hold hold = engine.acquired("a", "t1", 30_000);
        store.interruptRanReleases.set(1);

        engine.holds.release(hold, 0);

        assertThat(Thread.interrupted()).isTrue();
        assertThat(store.count("release a t1")).isEqualTo(2);
        assertThat(engine.heard.kinds).containsExactly("released");
    }

    @Test
    void anInterruptedReleaseWhoseSecondSendIsNotAnsweredWithinTheLeaseFailsAndIsCleanedUp() throws Exception {
        // by then the lock has expired anyway: the caller is not kept waiting longer
        Hold hold = engine.acquired("a", "t1", 150);
        store.interruptReleases.set(1);
        store.laterReleasesWaitFor = new CountDownLatch(1);

        assertThatThrownBy(() -> engine.holds.release(hold, 0)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("interrupted, then sent again without an answer within its lease PT0.15S");

        assertThat(Thread.interrupted()).isTrue();
        assertThat(engine.names.size()).as("the hold ended").isZero();
        EngineFixtures.awaitTrue(() -> store.count("abandon a t1") == 1, "the clean-up taking over");
    }

    @Test
    void aNonBlockingReleaseIsNotSentAgainAfterAFailureThatLooksLikeAnInterrupt() throws Exception {
        // only a blocking caller's own interrupt breaks a wait; the failure is reported as it came
        Hold hold = engine.acquired("a", "t1", 30_000);
        store.interruptReleases.set(1);

        Throwable failure = EngineFixtures.awaitFailure(engine.holds.releaseAsync(hold, 0), "the release");

        assertThat(failure).isInstanceOf(LockBackendException.class);
        assertThat(store.count("release a t1")).isEqualTo(1);
        assertThat(engine.heard.kinds).containsExactly("releaseFailed");
    }
}
