package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static dev.distlock.engine.Registries.awaitUntil;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.Lease;
import dev.distlock.test.scripted.ScriptedCall;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Renewals that fall due together go to a store that renews in batches (as the Redis store does) as one call: holds
 * with one lease renew on a shared grid of moments, so many holds cost few calls, and each hold still gets its own
 * answer.
 */
class RenewalBatchesTest extends ScriptedStoreTest {

    private static final int HOLDS = 50;

    @Test
    void holdsTakenTogetherAreRenewedInFewCallsAndStayHeld() throws Exception {
        store.renewInBatches();
        ScriptedLockRegistry registry = registries.process(events);
        List<DetachedLock> holds = new ArrayList<>();
        for (int i = 0; i < HOLDS; i++) {
            holds.add(registry.obtain("batched:" + i, Lease.renewed(Duration.ofSeconds(3))).lockAsync()
                    .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
        }

        // every hold renewed once: a period (1 s) after they were taken
        awaitUntil(() -> renewed() >= HOLDS);

        // the holds were taken within a few grid moments (10 ms apart), each moment one call; not one call each
        assertThat(store.renewalBatches()).as("renewal calls for %d holds", HOLDS).hasSizeLessThan(HOLDS / 2);
        assertThat(holds).allSatisfy(hold -> assertThat(hold.isHeld()).isTrue());
        assertThat(events.renewalFailed).isEmpty();
        holds.forEach(DetachedLock::unlock);
        assertThat(events.lost).isEmpty();
    }

    @Test
    void aHoldReleasedWhileItsBatchIsInFlightIsNotReportedLost() throws Exception {
        store.renewInBatches();
        ScriptedLockRegistry registry = registries.process(events);
        ScriptedCall renewal = store.next(Op.EXTEND, "brief").holdBeforeRunning();
        DetachedLock kept = registry.obtain("kept", Lease.renewed(Duration.ofMillis(600))).lockAsync()
                .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
        DetachedLock brief = registry.obtain("brief", Lease.renewed(Duration.ofMillis(600))).lockAsync()
                .toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);

        renewal.awaitEntered(); // brief's batch is sent and waits for the store
        brief.unlock(); // does not wait for it
        renewal.proceed(); // the renewal now finds the key released: a "not held" answer for an ended hold

        long keptRenewals = store.calls(Op.EXTEND, "kept");
        awaitUntil(() -> store.calls(Op.EXTEND, "kept") >= keptRenewals + 3);
        assertThat(kept.isHeld()).isTrue();
        kept.unlock();
        assertThat(events.lost).isEmpty();
        assertThat(events.released).hasSize(2);
    }

    private long renewed() {
        return store.renewalBatches().stream().mapToLong(Integer::longValue).sum();
    }
}
