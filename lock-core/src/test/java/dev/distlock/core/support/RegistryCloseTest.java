package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a registry gives back the holds still open in it: released in the store, so that another process (here a
 * second registry on the same store) gets them at once, and lost for their owners, with no loss reported to the
 * listeners; a hold released before the close is not released again.
 */
@BoundedTest
class RegistryCloseTest {

    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Heard heard = new EngineFixtures.Heard();
    private final EngineFixtures.TestRegistry closing = EngineFixtures.registry(store,
            EngineFixtures.settings().listener(heard));
    private final EngineFixtures.TestRegistry other = EngineFixtures.registry(store, EngineFixtures.settings());

    @AfterEach
    void closeOther() {
        other.close();
    }

    @Test
    void closingGivesTheOpenHoldsBackAndTheirOwnersFindThemLost() throws Exception {
        FencedLock blocking = closing.obtain("job");
        blocking.lock();
        DetachedLock detached = closing.obtain("leader").tryLockAsync(Duration.ZERO).toCompletableFuture()
                .get(EngineFixtures.BOUND_SECONDS, TimeUnit.SECONDS);
        assertThat(other.obtain("job").tryLock()).as("held by the closing registry").isFalse();

        closing.close();

        FencedLock job = other.obtain("job");
        FencedLock leader = other.obtain("leader");
        assertThat(job.tryLock()).as("'job' given back").isTrue();
        assertThat(leader.tryLock()).as("'leader' given back").isTrue();
        assertThat(blocking.isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(blocking::unlock).isInstanceOf(LockLostException.class)
                .hasMessageContaining("registry was closed");
        assertThat(detached.isHeld()).isFalse();
        assertThat(heard.kinds).as("a give-back is no loss to report").doesNotContain("lost");
        job.unlock();
        leader.unlock();
    }

    @Test
    void aHoldReleasedBeforeTheCloseIsNotReleasedAgain() {
        FencedLock lock = closing.obtain("job");
        lock.lock();
        lock.unlock();
        long releases = store.count("release job");

        closing.close();

        assertThat(store.count("release job")).isEqualTo(releases);
    }
}
