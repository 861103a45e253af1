package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * A lock an outsider overwrote in the in-memory store, on a clock moved by hand: its hold has no known fencing token
 * (0), is raised only above the name's count, can be force-released only once raised, and that forced release ends
 * the name's life, so a release from before the overwrite is not reported again.
 */
class InMemoryOverwriteTest extends MemoryFixtures.StoreOnManualClock {

    @Test
    void anOverwrittenHoldIsRaisedOnlyAboveTheNamesCountAndItsForcedReleaseEndsTheLife() {
        long a = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("n", "a", a);
        store.overwrite("n", "outsider");
        assertThat(store.inspect("n").fencingToken()).isZero();

        assertThat(store.raiseFence("n", "outsider", a)).isTrue();
        assertThat(store.inspect("n").fencingToken()).as("not above the count: kept").isZero();
        assertThat(store.raiseFence("n", "outsider", a + 1)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(a + 1);

        assertThat(store.forceRelease("n", a + 1)).isTrue();
        assertThat(store.isLocked("n")).isFalse();
        assertThat(store.release("n", "a", a)).as("a release from before the forced one").isFalse();
        assertThat(store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).fencingToken()).isEqualTo(a + 2);
    }
}
