package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.Grant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * An operator's forced release of an in-memory lock, on a clock moved by hand: it ends only the live hold with the
 * fencing token given, hands the lock to the first live waiter as a release would, and starts a new life of the name,
 * so the ended hold counts as lost for its owner's release and for releases run again from before it.
 */
class InMemoryForcedReleaseTest extends MemoryFixtures.StoreOnManualClock {

    @Test
    void endsTheHoldWithThatFencingTokenAndHandsTheLockToTheFirstLiveWaiter() {
        List<Grant> toWaiter = new CopyOnWriteArrayList<>();
        store.await("n", "waiter", toWaiter::add);
        long a = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("n", "dead", LEASE, true, 100);
        store.tryAcquire("n", "waiter", LEASE, true, WAITER_TIMEOUT);
        clock.advance(101);

        assertThat(store.forceRelease("n", a - 1)).as("not the hold's token").isFalse();
        assertThat(store.forceRelease("n", a + 1)).as("not the hold's token").isFalse();
        assertThat(store.inspect("n").ownerToken()).isEqualTo("a");
        assertThat(store.forceRelease("n", a)).isTrue();

        assertThat(toWaiter).singleElement().satisfies(grant -> {
            assertThat(grant.fencingToken()).isGreaterThan(a);
            assertThat(grant.serverTimeMillis()).isEqualTo(T0 + 101);
            assertThat(grant.leaseMillis()).isEqualTo(WAITER_TIMEOUT);
        });
        assertThat(store.inspect("n").ownerToken()).isEqualTo("waiter");
        assertThat(store.waitersQueued("n")).isZero();
        assertThat(store.release("n", "a", a)).as("a's hold was lost, not released").isFalse();
        assertThat(store.forceRelease("n", a)).as("a's hold is over").isFalse();
    }

    @Test
    void startsANewLifeSoReleasesRunAgainFromBeforeItAreNoLongerReported() {
        long a = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("n", "a", a);
        long b = store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.release("n", "a", a)).as("the life goes on").isTrue();

        assertThat(store.forceRelease("n", b)).isTrue();

        assertThat(store.isLocked("n")).isFalse();
        assertThat(store.release("n", "a", a)).isFalse();
        assertThat(store.release("n", "b", b)).isFalse();
        long c = store.tryAcquire("n", "c", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(c).isGreaterThan(b);
        assertThat(store.release("n", "b", b)).as("not in c's life").isFalse();
    }

    @Test
    void findsNothingOnAFreeNameAReleasedHoldOrAnOverwrittenLockWithoutAToken() {
        assertThat(store.forceRelease("free", 1)).isFalse();

        long released = store.tryAcquire("released", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("released", "a", released);
        assertThat(store.forceRelease("released", released)).isFalse();
        assertThat(store.release("released", "a", released)).as("its release still reported").isTrue();

        store.tryAcquire("overwritten", "a", LEASE, false, WAITER_TIMEOUT);
        store.overwrite("overwritten", "outsider");
        assertThat(store.forceRelease("overwritten", 0)).as("0: no token known").isFalse();
        assertThat(store.inspect("overwritten").ownerToken()).isEqualTo("outsider");
    }
}
