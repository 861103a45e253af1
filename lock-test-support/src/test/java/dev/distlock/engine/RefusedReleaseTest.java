package dev.distlock.engine;

import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import dev.distlock.test.scripted.ScriptedLockStore.TransientFailure;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A release the store refuses without running it (a cluster slot in migration answers {@code TRYAGAIN} to every
 * release for as long as it moves) is sent again, blocking or not, until the hold's local deadline: a refusal that
 * ends before it costs the caller nothing; one that outlasts it fails the release, and the clean-up finishes it.
 */
class RefusedReleaseTest extends ScriptedStoreTest {

    /** More refusals than the three sends within about 150 ms that a release once had. */
    private static final int REFUSALS = 6;
    private static final String TRYAGAIN = "TRYAGAIN Multiple keys request during rehashing of slot";

    @Test
    void aReleaseRefusedSeveralTimesIsSentUntilItRuns() {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        refuseNextReleases(REFUSALS);

        lock.unlock();

        assertThat(store.calls(Op.RELEASE, "job")).isEqualTo(REFUSALS + 1);
        assertThat(store.backend().isLocked("job")).isFalse();
        assertThat(events.released).hasSize(1);
        assertThat(events.lost).isEmpty();
    }

    @Test
    void aNonBlockingReleaseRefusedSeveralTimesIsSentUntilItRuns() throws Exception {
        store.answerAsynchronously();
        DetachedLock lock = registries.process(events).obtain("job").lockAsync().toCompletableFuture()
                .get(10, TimeUnit.SECONDS);
        refuseNextReleases(REFUSALS);

        lock.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(store.calls(Op.RELEASE, "job")).isEqualTo(REFUSALS + 1);
        assertThat(store.backend().isLocked("job")).isFalse();
        assertThat(events.released).hasSize(1);
    }

    @Test
    void aRefusalThatOutlastsTheHoldsLeaseFailsTheReleaseWithWhatTheStoreSaidAndTheCleanUpFinishesIt() {
        FencedLock lock = registries.process(events).obtain("job", Lease.fixed(Duration.ofMillis(500)));
        lock.lock();
        ScriptedCall refusing = store.every(Op.RELEASE, "job").fail(new TransientFailure(TRYAGAIN));

        assertThatThrownBy(lock::unlock).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("TRYAGAIN");

        assertThat(store.calls(Op.RELEASE, "job")).as("sent again while refused").isGreaterThan(3);
        refusing.disarm();
        awaitUntil(() -> !store.backend().isLocked("job"));
        assertThat(events.lost).isEmpty();
    }

    @Test
    void aNonBlockingReleaseRefusedPastTheHoldsLeaseFailsWithWhatTheStoreSaid() throws Exception {
        store.answerAsynchronously();
        DetachedLock lock = registries.process(events).obtain("job", Lease.fixed(Duration.ofMillis(500)))
                .lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        ScriptedCall refusing = store.every(Op.RELEASE, "job").fail(new TransientFailure(TRYAGAIN));

        assertThatThrownBy(() -> lock.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class).cause().isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("TRYAGAIN");

        assertThat(store.calls(Op.RELEASE, "job")).as("sent again while refused").isGreaterThan(3);
        refusing.disarm();
        awaitUntil(() -> !store.backend().isLocked("job"));
    }

    private void refuseNextReleases(int times) {
        for (int i = 0; i < times; i++) {
            store.next(Op.RELEASE, "job").fail(new TransientFailure(TRYAGAIN));
        }
    }
}
