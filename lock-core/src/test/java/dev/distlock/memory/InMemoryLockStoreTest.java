package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Announcements;
import dev.distlock.core.spi.Grant;
import dev.distlock.core.spi.HandOffNotices;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store's rules, on a clock moved by hand: owner-checked commands, leases and queue entries that
 * expire, hand-offs to the first live waiter with a claim lease, and fencing tokens that only grow.
 */
class InMemoryLockStoreTest extends MemoryFixtures.StoreOnManualClock {

    @Test
    void aFreeNameIsTakenWithAFencingTokenFromTheClockInMicrosecondsAndTheStoresTime() {
        AcquireResult taken = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);

        assertThat(taken.acquired()).isTrue();
        assertThat(taken.fencingToken()).isEqualTo(T0 * 1_000);
        assertThat(taken.serverTimeMillis()).isEqualTo(T0);
        assertThat(store.isLocked("n")).isTrue();
        assertThat(store.heldNames()).containsExactly("n");
        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(LEASE);
        assertThat(store.inspect("n")).isEqualTo(new LockSnapshot("a", T0 * 1_000, LEASE, 0));
    }

    @Test
    void aHeldNameIsBusyForOthersWithTheHoldersLeaseLeftAndTheHoldersOwnTryRenewsIt() {
        store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);
        clock.advance(4_000);

        AcquireResult busy = store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT);
        assertThat(busy.acquired()).isFalse();
        assertThat(busy.holderLeaseMillis()).isEqualTo(LEASE - 4_000);
        assertThat(busy.serverTimeMillis()).isEqualTo(T0 + 4_000);
        assertThat(store.waitersQueued("n")).as("a single try does not queue").isZero();

        AcquireResult again = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);
        assertThat(again.acquired()).isTrue();
        assertThat(again.fencingToken()).isEqualTo(T0 * 1_000);
        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(LEASE);
    }

    @Test
    void aLeaseEndsAtItsInstantAndTheNameIsFreeThen() {
        store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);
        clock.advance(LEASE - 1);
        assertThat(store.isLocked("n")).isTrue();
        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(1);

        clock.advance(1);
        assertThat(store.heldNames()).isEmpty();
        assertThat(store.isLocked("n")).isFalse();
        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(-1);
        assertThat(store.inspect("n")).isEqualTo(new LockSnapshot(null, 0, 0, 0));
        assertThat(store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).acquired()).isTrue();
    }

    @Test
    void onlyTheOwnerReleasesExtendsRenewsOrReadsTheLease() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();

        assertThat(store.release("n", "b", fence + 1)).isFalse();
        assertThat(store.extend("n", "b", 60_000)).isFalse();
        assertThat(store.renew("n", "b", 60_000)).isFalse();
        assertThat(store.remainingLeaseMillis("n", "b")).isEqualTo(-1);
        store.abandon("n", "b");
        assertThat(store.isLocked("n")).isTrue();

        assertThat(store.extend("n", "a", 1_000)).isTrue();
        assertThat(store.remainingLeaseMillis("n", "a")).as("an extend shortens too").isEqualTo(1_000);
        assertThat(store.renew("n", "a", 500)).isTrue();
        assertThat(store.remainingLeaseMillis("n", "a")).as("a renewal never shortens").isEqualTo(1_000);
        assertThat(store.renew("n", "a", 5_000)).isTrue();
        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(5_000);
        assertThat(store.release("n", "a", fence)).isTrue();
        assertThat(store.isLocked("n")).isFalse();
    }

    @Test
    void aReleaseRunAgainSucceedsAgainWithinTheNamesLifeAndNotForAnotherLife() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.release("n", "a", fence)).isTrue();
        assertThat(store.release("n", "a", fence)).as("the same release again").isTrue();
        assertThat(store.release("n", "a", fence + 1)).as("a fence never issued").isFalse();

        clock.advance(1);
        long next = store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(next).isGreaterThan(fence);
        assertThat(store.release("n", "a", fence)).as("the life goes on: a's hold was released").isTrue();
        assertThat(store.release("n", "a", next + 1)).isFalse();
        assertThat(store.inspect("n").ownerToken()).isEqualTo("b");

        store.delete("n");
        assertThat(store.release("n", "a", fence)).as("a deleted key ends the life").isFalse();
    }

    @Test
    void aReleaseHandsTheLockToTheFirstLiveWaiterWithAClaimLeaseAndTellsIt() {
        List<Grant> grantsToB = new CopyOnWriteArrayList<>();
        List<Grant> grantsToC = new CopyOnWriteArrayList<>();
        HandOffNotices.Subscription b = store.await("n", "b", grantsToB::add);
        store.await("n", "c", grantsToC::add);
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.tryAcquire("n", "b", 60_000, true, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(store.tryAcquire("n", "c", 500, true, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(store.waitersQueued("n")).isEqualTo(2);
        clock.advance(100);

        assertThat(store.release("n", "a", fence)).isTrue();

        assertThat(grantsToB).singleElement().satisfies(grant -> {
            assertThat(grant.fencingToken()).isGreaterThan(fence);
            assertThat(grant.serverTimeMillis()).isEqualTo(T0 + 100);
            assertThat(grant.leaseMillis()).as("the shorter of its lease and its waiter timeout")
                    .isEqualTo(WAITER_TIMEOUT);
        });
        assertThat(grantsToC).isEmpty();
        assertThat(store.inspect("n").ownerToken()).isEqualTo("b");
        assertThat(store.remainingLeaseMillis("n", "b")).isEqualTo(WAITER_TIMEOUT);
        assertThat(store.waitersQueued("n")).isEqualTo(1);

        // the waiter's next try confirms the hold with its full lease, under the same fencing token
        AcquireResult confirmed = store.tryAcquire("n", "b", 60_000, true, WAITER_TIMEOUT);
        assertThat(confirmed.acquired()).isTrue();
        assertThat(confirmed.fencingToken()).isEqualTo(grantsToB.get(0).fencingToken());
        assertThat(store.remainingLeaseMillis("n", "b")).isEqualTo(60_000);

        b.close();
        long bFence = confirmed.fencingToken();
        assertThat(store.release("n", "b", bFence)).isTrue();
        assertThat(grantsToC).singleElement().satisfies(grant -> assertThat(grant.leaseMillis()).isEqualTo(500));
    }

    @Test
    void aWaiterWhoseEntryDiedIsPassedOverAndAFreedNameGoesToTheFirstLiveWaiterNotANewcomer() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("n", "dead", LEASE, true, 100);
        store.tryAcquire("n", "live", LEASE, true, WAITER_TIMEOUT);
        clock.advance(100);
        assertThat(store.waitersQueued("n")).as("an entry lives up to its deadline").isEqualTo(2);
        clock.advance(1);
        assertThat(store.waitersQueued("n")).isEqualTo(1);

        store.release("n", "a", fence);
        assertThat(store.inspect("n").ownerToken()).isEqualTo("live");

        // a lease that runs out with a waiter queued: the waiter gets it, the newcomer queues behind
        clock.advance(WAITER_TIMEOUT / 2);
        assertThat(store.tryAcquire("n", "second", LEASE, true, WAITER_TIMEOUT).acquired()).isFalse();
        clock.advance(WAITER_TIMEOUT / 2); // "live" never confirmed: its claim ran out
        AcquireResult newcomer = store.tryAcquire("n", "newcomer", LEASE, true, WAITER_TIMEOUT);
        assertThat(newcomer.acquired()).isFalse();
        assertThat(newcomer.holderLeaseMillis()).isEqualTo(WAITER_TIMEOUT);
        assertThat(store.inspect("n").ownerToken()).isEqualTo("second");
        assertThat(store.waitersQueued("n")).isEqualTo(1);
    }

    @Test
    void aWaiterLeavingTheQueueKeepsALockHandedToItMeanwhileWithItsFullLease() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("n", "b", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("n", "c", LEASE, true, WAITER_TIMEOUT);

        AcquireResult left = store.leaveQueue("n", "c", LEASE);
        assertThat(left.acquired()).isFalse();
        assertThat(left.holderLeaseMillis()).isEqualTo(-1);
        assertThat(store.waitersQueued("n")).isEqualTo(1);

        store.release("n", "a", fence);
        AcquireResult kept = store.leaveQueue("n", "b", LEASE);
        assertThat(kept.acquired()).isTrue();
        assertThat(kept.fencingToken()).isGreaterThan(fence);
        assertThat(store.remainingLeaseMillis("n", "b")).isEqualTo(LEASE);
    }

    @Test
    void anAbandonLeavesTheQueueAndTheLockIfTheTokenHoldsIt() {
        store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("n", "b", LEASE, true, WAITER_TIMEOUT);

        store.abandon("n", "b");
        assertThat(store.waitersQueued("n")).isZero();
        assertThat(store.isLocked("n")).isTrue();

        store.abandon("n", "a");
        assertThat(store.isLocked("n")).isFalse();
    }

    @Test
    void fencingTokensOnlyGrowWhileTheCountLivesAndFallBackToTheClockAfter() {
        long first = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("n", "a", first);
        long second = store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(second).as("same millisecond: the count plus one").isEqualTo(first + 1);

        assertThat(store.raiseFence("n", "b", second + 1_000_000)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(second + 1_000_000);
        assertThat(store.raiseFence("n", "b", second)).as("never lowered").isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(second + 1_000_000);
        assertThat(store.raiseFence("n", "x", second + 2_000_000)).isFalse();
        store.release("n", "b", second + 1_000_000);
        long third = store.tryAcquire("n", "c", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(third).isEqualTo(second + 1_000_001);
        store.release("n", "c", third);

        clock.advance(MemoryFixtures.RETENTION.toMillis());
        long afterRetention = store.tryAcquire("n", "d", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(afterRetention).isEqualTo((T0 + MemoryFixtures.RETENTION.toMillis()) * 1_000);
    }

    @Test
    void anOverwrittenLockNeverExpiresAndIsSeenAsHeldByTheOutsider() {
        store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);

        store.overwrite("n", "outsider");

        assertThat(store.remainingLeaseMillis("n", "a")).isEqualTo(-1);
        assertThat(store.remainingLeaseMillis("n", "outsider")).isEqualTo(LockStore.NEVER_EXPIRES);
        clock.advance(LEASE * 100);
        assertThat(store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).holderLeaseMillis())
                .isEqualTo(LockStore.NEVER_EXPIRES);
    }

    @Test
    void announcementsLiveTheirTimeToLive() {
        Announcements announcements = store.capabilities().announcements().orElseThrow();
        announcements.announce("i1", Map.of("host", "h"), 1_000);

        assertThat(announcements.announcement("i1")).containsEntry("host", "h");
        assertThat(announcements.announcement("i2")).isEmpty();
        clock.advance(999);
        assertThat(announcements.announcement("i1")).isNotEmpty();
        clock.advance(1);
        assertThat(announcements.announcement("i1")).isEmpty();
    }

    @Test
    void namesUsedOnceAreSweptAfterTheirLeasesAndRetentionEnd() {
        for (int i = 0; i < 1_100; i++) {
            store.tryAcquire("once-" + i, "t", 10, i % 2 == 0, WAITER_TIMEOUT);
            store.tryAcquire("once-" + i, "u", 10, true, 10);
        }
        clock.advance(MemoryFixtures.RETENTION.toMillis() + 1);
        for (int i = 0; i < 1_100; i++) {
            store.tryAcquire("again-" + i, "t", LEASE, false, WAITER_TIMEOUT);
        }
        assertThat(store.heldNames()).hasSize(1_100).allMatch(name -> name.startsWith("again-"));
        assertThat(store.waitersQueued("once-1")).isZero();
        // a name whose count was swept starts again from the clock
        long fence = store.tryAcquire("once-1", "v", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(fence).isEqualTo((T0 + MemoryFixtures.RETENTION.toMillis() + 1) * 1_000);
    }

    @Test
    void aRaisedFencingTokenCountLivesItsRetentionAndNotAMillisecondMore() {
        long first = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        long raised = first + 10_000_000_000L;
        assertThat(store.raiseFence("n", "a", first)).as("not above the count: kept").isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(first);
        assertThat(store.raiseFence("n", "a", first + 1)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(first + 1);
        store.raiseFence("n", "a", raised);
        store.release("n", "a", raised);

        clock.advance(MemoryFixtures.RETENTION.toMillis() - 1);
        long within = store.tryAcquire("n", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(within).as("the count lives: one more").isEqualTo(raised + 1);
        store.release("n", "b", within);

        clock.advance(MemoryFixtures.RETENTION.toMillis());
        long after = store.tryAcquire("n", "c", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(after).as("the count's retention ended at this instant: the clock")
                .isEqualTo(clock.millis() * 1_000);
    }

    @Test
    void aHoldersCountThatExpiredIsRaisedFromTheHoldersOwnToken() {
        long first = store.tryAcquire("n", "a", MemoryFixtures.RETENTION.toMillis() * 3, false, WAITER_TIMEOUT)
                .fencingToken();
        clock.advance(MemoryFixtures.RETENTION.toMillis()); // the count expired, the hold lives

        assertThat(store.raiseFence("n", "a", first)).isTrue();
        assertThat(store.inspect("n").fencingToken()).as("not above the holder's token").isEqualTo(first);
        assertThat(store.raiseFence("n", "a", first + 1)).isTrue();
        assertThat(store.inspect("n").fencingToken()).isEqualTo(first + 1);
    }

    @Test
    void aFreedNamesLifeEndsWhenItsTraceHasLivedTheRetention() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("n", "a", fence);
        clock.advance(MemoryFixtures.RETENTION.toMillis() - 1);
        assertThat(store.release("n", "a", fence)).as("within the retention").isTrue();
        clock.advance(1);
        assertThat(store.release("n", "a", fence)).as("the trace ended at this instant").isFalse();

        long second = store.tryAcquire("m", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("m", "a", second);
        clock.advance(MemoryFixtures.RETENTION.toMillis());
        long next = store.tryAcquire("m", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.release("m", "a", second)).as("a new life began").isFalse();
        assertThat(store.release("m", "b", next)).isTrue();
    }

    @Test
    void aDeletedKeyForgetsTheReleaseBeforeIt() {
        long fence = store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("n", "a", fence);

        store.delete("n");

        assertThat(store.release("n", "a", fence)).isFalse();
    }

    @Test
    void aQueuedWaiterThatTakesAFreedNameLeavesTheQueue() {
        store.tryAcquire("n", "a", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("n", "b", LEASE, true, LEASE * 2);
        clock.advance(LEASE); // a's lease ran out; nobody released, so nobody was handed the lock

        AcquireResult taken = store.tryAcquire("n", "b", LEASE, true, LEASE * 2);

        assertThat(taken.acquired()).isTrue();
        assertThat(store.waitersQueued("n")).isZero();
    }
}
