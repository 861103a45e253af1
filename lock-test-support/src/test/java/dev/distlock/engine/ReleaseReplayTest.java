package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A release whose reply was lost with the connection, sent again by the client once it reconnected (Lettuce re-sends
 * the commands it wrote but saw no answer to), after other owners took and released the lock meanwhile: its first run
 * released the hold, so the caller hears of a release, never of a loss, however many owners came in between.
 */
class ReleaseReplayTest extends ScriptedStoreTest {

    private static final int OTHER_OWNERS = 3;

    private final List<Long> otherFences = new CopyOnWriteArrayList<>();

    @Test
    void anUnlockSentAgainAfterThreeOtherOwnersTookAndReleasedTheLockIsNoLoss() {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        long fence = lock.fencingToken();
        ScriptedLockRegistry others = registries.process(new Events());
        store.next(Op.RELEASE, "job").replayAfter(() -> takeAndRelease(others, OTHER_OWNERS));

        lock.unlock();

        assertThat(otherFences).as("the owners in between").hasSize(OTHER_OWNERS).isSorted()
                .allSatisfy(other -> assertThat(other).isGreaterThan(fence));
        assertThat(events.lost).isEmpty();
        assertThat(events.released).hasSize(1);
        assertThat(store.backend().isLocked("job")).isFalse();
    }

    @Test
    void anUnlockSentAgainWhileAFourthOwnerHoldsTheLockIsNoLossAndLeavesItsHold() {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        ScriptedLockRegistry others = registries.process(new Events());
        FencedLock holder = others.obtain("job");
        store.next(Op.RELEASE, "job").replayAfter(() -> {
            takeAndRelease(others, OTHER_OWNERS);
            assertThat(holder.tryLock()).isTrue();
        });

        lock.unlock();

        assertThat(events.lost).isEmpty();
        assertThat(store.backend().inspect("job").fencingToken()).as("the fourth owner's hold")
                .isEqualTo(holder.fencingToken());
        holder.unlock();
    }

    @Test
    void anAsyncUnlockSentAgainAfterThreeOtherOwnersTookAndReleasedTheLockIsNoLoss() throws Exception {
        store.answerAsynchronously();
        DetachedLock held = registries.process(events).obtain("job").lockAsync().toCompletableFuture()
                .get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);
        ScriptedLockRegistry others = registries.process(new Events());
        store.next(Op.RELEASE, "job").replayAfter(() -> takeAndRelease(others, OTHER_OWNERS));

        held.unlockAsync().toCompletableFuture().get(PATIENCE.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(otherFences).hasSize(OTHER_OWNERS);
        assertThat(events.lost).isEmpty();
        assertThat(events.released).hasSize(1);
    }

    /**
     * The bound: once nothing of the name is left since the first run (the freed lock's fence retention ended, or a
     * later owner's lease ran out, or the key was deleted), the store cannot tell the replay from a release of a hold
     * that was lost, and the caller hears of a loss.
     */
    @Test
    void anUnlockSentAgainAfterTheNameWasForgottenIsReportedLost() {
        FencedLock lock = registries.process(events).obtain("job");
        lock.lock();
        ScriptedLockRegistry others = registries.process(new Events());
        store.next(Op.RELEASE, "job").replayAfter(() -> {
            takeAndRelease(others, 1);
            store.backend().delete("job"); // as when the fence retention ends
        });

        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).hasSize(1);
    }

    /** {@code count} other owners take the lock one after another, each releasing it. */
    private void takeAndRelease(ScriptedLockRegistry others, int count) {
        for (int i = 0; i < count; i++) {
            FencedLock other = others.obtain("job");
            assertThat(other.tryLock()).as("other owner %d", i).isTrue();
            otherFences.add(other.fencingToken());
            other.unlock();
        }
    }
}
