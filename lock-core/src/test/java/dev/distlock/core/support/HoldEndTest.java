package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link DetachedLock#whenEnded()} tells how a hold ended: {@code null} once its owner released it, the loss once it
 * was found lost while held (its deadline passed, its registry closed), the first name's loss for several names.
 */
@BoundedTest
class HoldEndTest {

    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.TestRegistry registry = EngineFixtures.registry(store, EngineFixtures.settings());

    @AfterEach
    void close() {
        registry.close();
    }

    private DetachedLock take(String name, Lease lease) throws Exception {
        return EngineFixtures.await(registry.obtain(name, lease).tryLockAsync(Duration.ZERO), "the try");
    }

    @Test
    void aReleasedHoldEndsWithoutLoss() throws Exception {
        DetachedLock hold = take("job", Lease.renewed());
        CompletionStage<LockLostException> ended = hold.whenEnded();
        assertThat(ended.toCompletableFuture()).as("still held").isNotDone();

        hold.unlock();

        assertThat(EngineFixtures.await(ended, "the end")).isNull();
        assertThat(EngineFixtures.await(hold.whenEnded(), "asked after the end")).isNull();
    }

    @Test
    void aHoldWhoseLeaseRunsOutEndsWithItsLossBeforeItsOwnerReleases() throws Exception {
        DetachedLock hold = take("job", Lease.fixed(Lease.MIN));

        LockLostException loss = EngineFixtures.await(hold.whenEnded(), "the loss");

        assertThat(loss).isNotNull();
        assertThat(loss.getLockName()).isEqualTo("job");
        assertThat(loss.reason()).contains("fixed lease");
        assertThat(hold.isHeld()).isFalse();
    }

    @Test
    void closingTheRegistryEndsItsHoldsWithTheirLoss() throws Exception {
        DetachedLock hold = take("leader", Lease.renewed());

        registry.close();

        LockLostException loss = EngineFixtures.await(hold.whenEnded(), "the give-back");
        assertThat(loss.reason()).contains("registry was closed");
    }

    @Test
    void severalNamesEndWithTheFirstLossOrWhenAllAreReleased() throws Exception {
        DetachedLock both = EngineFixtures.await(registry.obtainAll(List.of("a", "b")).tryLockAsync(Duration.ZERO),
                "the try");
        CompletionStage<LockLostException> ended = both.whenEnded();
        both.unlock();
        assertThat(EngineFixtures.await(ended, "the end")).isNull();

        DetachedLock lost = EngineFixtures.await(registry.obtainAll(List.of("c", "d"), Lease.fixed(Lease.MIN), null)
                .tryLockAsync(Duration.ZERO), "the try");
        assertThat(EngineFixtures.await(lost.whenEnded(), "the loss").getLockName()).isIn("c", "d");
    }
}
