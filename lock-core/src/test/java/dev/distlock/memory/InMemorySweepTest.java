package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.AcquireResult;
import org.junit.jupiter.api.Test;

/**
 * What the in-memory store's periodic sweep (every 1,024 acquisitions of a free name) may drop: only what is dead at
 * its instant. Live fencing-token counts, release traces and queue entries come through it unchanged, so a sweep is
 * never seen in the lock rules. Also the exact instants of a queue entry's life and of raising a count.
 */
class InMemorySweepTest extends MemoryFixtures.StoreOnManualClock {

    private static final int SWEEP_EVERY = 1_024;

    /** Acquisitions of a free name so far: each counts towards the next sweep. */
    private int grants;
    private int fillers;

    private AcquireResult take(String name, String token, long leaseMillis) {
        AcquireResult taken = store.tryAcquire(name, token, leaseMillis, false, WAITER_TIMEOUT);
        assertThat(taken.acquired()).as("'%s' was free", name).isTrue();
        grants++;
        return taken;
    }

    /** Takes free names until the store has swept, the last one now. */
    private void sweepNow() {
        do {
            take("filler-" + fillers++, "f", 1);
        } while (grants % SWEEP_EVERY != 0);
    }

    @Test
    void aLiveFencingTokenCountComesThroughASweep() {
        // the count is what keeps tokens growing above the clock: dropping it live would hand out a smaller token
        long first = take("n", "a", LEASE).fencingToken();
        long raised = first + 10_000_000_000L;
        store.raiseFence("n", "a", raised);
        store.release("n", "a", raised);

        sweepNow();

        assertThat(take("n", "b", LEASE).fencingToken()).isEqualTo(raised + 1);
    }

    @Test
    void aHoldWhoseCountWasSweptIsRaisedFromItsOwnToken() {
        long lease = MemoryFixtures.RETENTION.toMillis() * 3;
        long first = take("n", "a", lease).fencingToken();
        clock.advance(MemoryFixtures.RETENTION.toMillis());
        sweepNow(); // the count's retention ended; the hold lives

        assertThat(store.raiseFence("n", "a", first)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(first);
        assertThat(store.raiseFence("n", "a", first + 1)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(first + 1);
    }

    @Test
    void raisingACountToWhatItIsLeavesItsRetentionAsItWas() {
        // only a raise renews the count's retention; the same token again is no raise
        long first = take("n", "a", MemoryFixtures.RETENTION.toMillis() * 3).fencingToken();
        long raised = first + 10_000_000_000_000L;
        store.raiseFence("n", "a", raised);
        clock.advance(MemoryFixtures.RETENTION.toMillis() - 1);
        store.raiseFence("n", "a", raised);
        store.release("n", "a", raised);
        clock.advance(1);

        assertThat(take("n", "b", LEASE).fencingToken()).as("the count expired: the clock")
                .isEqualTo(clock.millis() * 1_000);
    }

    @Test
    void aLiveReleaseTraceComesThroughASweep() {
        // a release run again within the name's life still succeeds
        long fence = take("n", "a", LEASE).fencingToken();
        store.release("n", "a", fence);

        sweepNow();

        assertThat(store.release("n", "a", fence)).isTrue();
    }

    @Test
    void aQueueEntryAtItsDeadlineComesThroughASweepAndDiesAfterIt() {
        take("n", "a", LEASE);
        store.tryAcquire("n", "b", LEASE, true, 100);
        clock.advance(100);

        sweepNow();
        assertThat(store.waitersQueued("n")).as("at its deadline").isEqualTo(1);

        clock.advance(1);
        sweepNow();
        assertThat(store.waitersQueued("n")).isZero();
    }

    @Test
    void aQueueOfLiveEntriesComesThroughASweep() {
        take("n", "a", LEASE);
        store.tryAcquire("n", "b", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "c", LEASE, true, WAITER_TIMEOUT);

        sweepNow();

        assertThat(store.waitersQueued("n")).isEqualTo(2);
    }

    @Test
    void aWaiterAtItsEntrysDeadlineIsHandedTheLock() {
        // an entry lives up to its deadline, for a hand-off as for a count
        long fence = take("n", "a", LEASE).fencingToken();
        store.tryAcquire("n", "b", LEASE, true, 100);
        clock.advance(100);

        store.release("n", "a", fence);

        assertThat(store.inspect("n").ownerToken()).isEqualTo("b");
    }
}
