package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The queue of the in-memory store's semaphores, on a clock moved by hand: waiters served in arrival order, a release
 * handing freed permits to the waiters at the head as long as each fits, with a claim lease and a notice, entries
 * that live to their deadline, leaving the queue, and an abandon.
 */
class InMemoryPermitQueueTest extends MemoryFixtures.StoreOnManualClock {

    private AcquireResult take(String token, int count, int limit) {
        return store.takePermits("s", token, count, limit, LEASE, false, WAITER_TIMEOUT);
    }

    private AcquireResult queue(String token, int count, int limit, long leaseMillis, long timeoutMillis) {
        return store.takePermits("s", token, count, limit, leaseMillis, true, timeoutMillis);
    }

    @Test
    void aReleaseHandsFreedPermitsToTheWaitersAtTheHeadAsLongAsEachFitsWithAClaimLease() {
        List<Grant> toFirst = grantsTo("s", "first");
        List<Grant> toSecond = grantsTo("s", "second");
        List<Grant> toThird = grantsTo("s", "third");
        long a = take("a", 3, 4).fencingToken();
        take("b", 1, 4);
        assertThat(queue("first", 2, 4, 60_000, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(queue("second", 1, 4, 500, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(queue("third", 1, 4, LEASE, WAITER_TIMEOUT).acquired()).isFalse();
        clock.advance(100);

        assertThat(store.release("s", "a", a)).isTrue();

        assertThat(toFirst).singleElement().satisfies(grant -> {
            assertThat(grant.fencingToken()).isGreaterThan(a);
            assertThat(grant.serverTimeMillis()).isEqualTo(T0 + 100);
            assertThat(grant.leaseMillis()).as("the shorter of its lease and its timeout").isEqualTo(WAITER_TIMEOUT);
        });
        assertThat(toSecond).singleElement().satisfies(grant -> {
            assertThat(grant.fencingToken()).isGreaterThan(toFirst.get(0).fencingToken());
            assertThat(grant.leaseMillis()).isEqualTo(500);
        });
        assertThat(toThird).as("1 + 2 + 1 of 4: no room left").isEmpty();
        assertThat(store.permitsInUse("s")).isEqualTo(4);
        assertThat(store.remainingLeaseMillis("s", "first")).isEqualTo(WAITER_TIMEOUT);
        assertThat(store.inspect("s").waiterTokens()).containsExactly("third");

        AcquireResult confirmed = queue("first", 2, 4, 60_000, WAITER_TIMEOUT);
        assertThat(confirmed.acquired()).isTrue();
        assertThat(confirmed.fencingToken()).isEqualTo(toFirst.get(0).fencingToken());
        assertThat(store.remainingLeaseMillis("s", "first")).isEqualTo(60_000);
        assertThat(store.permitsInUse("s")).isEqualTo(4);
    }

    @Test
    void aWaiterForSeveralPermitsIsNotOvertakenByALaterOneForFewer() {
        List<Grant> toBig = grantsTo("s", "big");
        List<Grant> toSmall = grantsTo("s", "small");
        long a = take("a", 2, 3).fencingToken();
        long b = take("b", 1, 3).fencingToken();
        queue("big", 2, 3, LEASE, WAITER_TIMEOUT);
        queue("small", 1, 3, LEASE, WAITER_TIMEOUT);

        store.release("s", "b", b);
        assertThat(toBig).isEmpty();
        assertThat(toSmall).as("one permit free, but big is first").isEmpty();
        AcquireResult retry = queue("small", 1, 3, LEASE, WAITER_TIMEOUT);
        assertThat(retry.acquired()).isFalse();
        assertThat(retry.holderLeaseMillis()).isEqualTo(LEASE);
        assertThat(store.permitsInUse("s")).isEqualTo(2);

        store.release("s", "a", a);
        assertThat(toBig).hasSize(1);
        assertThat(toSmall).hasSize(1);
        assertThat(store.permitsInUse("s")).isEqualTo(3);
        assertThat(store.waitersQueued("s")).isZero();
    }

    @Test
    void theWaiterAtTheHeadTakesPermitsAnExpiredLeaseFreedBeforeANewcomerDoes() {
        take("a", 3, 3);
        queue("w", 1, 3, LEASE, LEASE * 2);
        clock.advance(LEASE); // a's lease ran out: nobody released, so nobody was handed its permits
        assertThat(store.inspect("s").waiterTokens()).containsExactly("w");
        assertThat(store.inspect("s").holds()).isZero();

        AcquireResult newcomer = take("x", 1, 3);
        assertThat(newcomer.acquired()).isFalse();
        assertThat(newcomer.holderLeaseMillis()).as("nobody holds a permit").isEqualTo(-1);

        AcquireResult head = queue("w", 1, 3, LEASE, LEASE * 2);
        assertThat(head.acquired()).isTrue();
        assertThat(store.waitersQueued("s")).isZero();
        assertThat(take("x", 2, 3).acquired()).isTrue();
        assertThat(store.permitsInUse("s")).isEqualTo(3);
    }

    @Test
    void aRefreshedEntryKeepsItsPlaceAndLivesToItsNewDeadline() {
        long a = take("a", 1, 1).fencingToken();
        queue("w", 1, 1, LEASE, 1_000);
        queue("v", 1, 1, LEASE, 5_000);
        clock.advance(900);
        queue("w", 1, 1, LEASE, 1_000);
        clock.advance(1_000);
        assertThat(store.waitersQueued("s")).as("w at its new deadline").isEqualTo(2);
        assertThat(store.inspect("s").waiterTokens()).containsExactly("w", "v");

        clock.advance(1);
        assertThat(store.waitersQueued("s")).isOne();
        store.release("s", "a", a);
        assertThat(store.inspect("s").ownerToken()).isEqualTo("v");
    }

    @Test
    void aWaiterLeavingTheQueueKeepsPermitsHandedToItMeanwhileWithItsFullLease() {
        long a = take("a", 2, 2).fencingToken();
        queue("b", 1, 2, LEASE, WAITER_TIMEOUT);
        queue("c", 1, 2, LEASE, WAITER_TIMEOUT);

        AcquireResult left = store.leaveQueue("s", "c", LEASE);
        assertThat(left.acquired()).isFalse();
        assertThat(left.holderLeaseMillis()).isEqualTo(-1);
        assertThat(store.waitersQueued("s")).isOne();

        store.release("s", "a", a);
        assertThat(store.permitsInUse("s")).as("only b was still waiting").isOne();
        AcquireResult kept = store.leaveQueue("s", "b", LEASE);
        assertThat(kept.acquired()).isTrue();
        assertThat(kept.fencingToken()).isGreaterThan(a);
        assertThat(store.remainingLeaseMillis("s", "b")).isEqualTo(LEASE);
    }

    @Test
    void anAbandonLeavesTheQueueAndGivesBackThePermitsToTheWaitersThatFit() {
        List<Grant> toB = grantsTo("s", "b");
        take("a", 2, 2);
        queue("b", 2, 2, LEASE, WAITER_TIMEOUT);
        queue("c", 1, 2, LEASE, WAITER_TIMEOUT);

        store.abandon("s", "c");
        assertThat(store.waitersQueued("s")).isOne();
        assertThat(store.permitsInUse("s")).isEqualTo(2);

        store.abandon("s", "a");
        assertThat(toB).singleElement().satisfies(grant -> assertThat(grant.leaseMillis()).isEqualTo(WAITER_TIMEOUT));
        assertThat(store.inspect("s").ownerToken()).isEqualTo("b");
        assertThat(store.remainingLeaseMillis("s", "a")).isEqualTo(-1);
        assertThat(store.waitersQueued("s")).isZero();
    }
}
