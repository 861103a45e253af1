package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.LockSnapshot;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * What the in-memory store's inspection tells of a lock's queue, on a clock moved by hand: the live waiters' tokens
 * in the order the lock goes to them, and no more than {@link LockSnapshot#MAX_WAITER_TOKENS} of them.
 */
class InMemoryQueueInspectionTest extends MemoryFixtures.StoreOnManualClock {

    @Test
    void listsTheLiveWaitersInArrivalOrderAndARefreshedEntryKeepsItsPlace() {
        store.tryAcquire("n", "holder", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("n", "first", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "second", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "third", LEASE, true, WAITER_TIMEOUT);
        clock.advance(1_000);
        store.tryAcquire("n", "first", LEASE, true, WAITER_TIMEOUT);

        LockSnapshot snapshot = store.inspect("n");

        assertThat(snapshot.ownerToken()).isEqualTo("holder");
        assertThat(snapshot.waiting()).isEqualTo(3);
        assertThat(snapshot.waiterTokens()).containsExactly("first", "second", "third");
    }

    @Test
    void leavesOutWaitersWhoseEntriesDiedAndWaitersThatLeftOrWereServed() {
        long fence = store.tryAcquire("n", "holder", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("n", "served", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "stale", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "gone", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "waiting", LEASE, true, LEASE);
        store.leaveQueue("n", "gone", LEASE);
        store.release("n", "holder", fence);
        store.tryAcquire("n", "served", LEASE, true, WAITER_TIMEOUT);
        clock.advance(WAITER_TIMEOUT + 1);

        LockSnapshot snapshot = store.inspect("n");

        assertThat(snapshot.ownerToken()).isEqualTo("served");
        assertThat(snapshot.waiting()).isOne();
        assertThat(snapshot.waiterTokens()).containsExactly("waiting");
    }

    @Test
    void listsAnEntryUpToItsDeadlineAndNotAMillisecondAfter() {
        store.tryAcquire("n", "holder", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("n", "short", LEASE, true, 100);
        store.tryAcquire("n", "long", LEASE, true, WAITER_TIMEOUT);
        clock.advance(100);
        assertThat(store.inspect("n").waiterTokens()).containsExactly("short", "long");

        clock.advance(1);
        assertThat(store.inspect("n").waiterTokens()).containsExactly("long");
        assertThat(store.inspect("n").waiting()).isOne();
    }

    @Test
    void listsTheFirstHundredWaitersOfALongerQueueAndCountsThemAll() {
        store.tryAcquire("n", "holder", LEASE, false, WAITER_TIMEOUT);
        List<String> queued = new ArrayList<>();
        for (int i = 0; i < LockSnapshot.MAX_WAITER_TOKENS + 20; i++) {
            queued.add("w" + i);
            store.tryAcquire("n", "w" + i, LEASE, true, WAITER_TIMEOUT);
        }

        LockSnapshot snapshot = store.inspect("n");

        assertThat(snapshot.waiting()).isEqualTo(queued.size());
        assertThat(snapshot.waiterTokens()).isEqualTo(queued.subList(0, LockSnapshot.MAX_WAITER_TOKENS));
    }

    @Test
    void aFreeNameWithoutWaitersListsNone() {
        assertThat(store.inspect("n").waiterTokens()).isEmpty();
        assertThat(store.inspect("n")).isEqualTo(new LockSnapshot(null, 0, 0, 0));
    }
}
