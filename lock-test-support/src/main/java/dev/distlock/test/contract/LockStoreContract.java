package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.BatchRenewal;
import dev.distlock.core.spi.ForcedRelease;
import dev.distlock.core.spi.LockReads;
import dev.distlock.core.spi.LockSnapshot;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PassOn;
import dev.distlock.core.spi.PassingOn;
import dev.distlock.core.spi.Renewal;
import dev.distlock.core.spi.WaitQueue;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The protocol every {@link LockStore} holds to, one atomic operation at a time, whatever it is built on: the Redis
 * scripts and the in-memory store must answer alike, so that the engine above them behaves the same on both. An
 * implementation's test extends this class and says how to make a store on a fresh backend.
 *
 * <p>What it pins down: owner-checked operations (nothing touches a lock held under another token), fencing tokens
 * that grow with every holder, operations that are safe to run twice for their own token (a client resending a
 * command after a reconnect), the queue (a release hands the lock to the first live waiter, a newcomer finds it
 * busy, a waiter that leaves or is abandoned is never handed the lock, an inspection lists the live waiters in queue
 * order), renewals that only lengthen a lease while {@code extend} sets it exactly, leases that run out, and an
 * operator's forced release of one named hold. Every wait is bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class LockStoreContract {

    /** A lease far longer than any test. */
    protected static final long LEASE = 60_000;
    /** A waiter's timeout: its queue entry lives this long after its last try. */
    protected static final long WAITER_TIMEOUT = 10_000;
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private LockStore store;

    /** A store on a backend that holds no lock yet; closed after the test. */
    protected abstract LockStore newStore() throws Exception;

    @BeforeEach
    void openStore() throws Exception {
        store = newStore();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    /**
     * Makes {@code token} the owner of {@code name} without expiry, behind the store's back, as an outsider (a
     * tool, a script) writing the backend directly would.
     */
    protected abstract void holdWithoutExpiry(String name, String token);

    /** Ends the fence retention of the freed lock {@code name} now, as if it had run out: nothing of it is left. */
    protected abstract void endFenceRetention(String name);

    /** The store under test. */
    protected LockStore store() {
        return store;
    }

    private LockReads reads() {
        return offered(store.capabilities().reads(), "reads its locks");
    }

    private WaitQueue queue() {
        return offered(store.capabilities().queue(), "queues waiters");
    }

    private ForcedRelease forced() {
        return offered(store.capabilities().forcedRelease(), "forces releases");
    }

    /** A store under this contract reads, queues and forces releases; these are its protocol. */
    private static <T> T offered(Optional<T> capability, String what) {
        return capability.orElseThrow(() -> new AssertionError("a store under this contract " + what));
    }

    /** Passing on in one call, where the store offers it: the rest of its tests are skipped on another store. */
    private PassingOn passingOn() {
        Optional<PassingOn> offered = store.capabilities().passingOn();
        Assumptions.assumeTrue(offered.isPresent(), "the store passes locks on in one call");
        return offered.get();
    }

    /** Renewals in batches, where the store offers them: the rest of its tests are skipped on another store. */
    private BatchRenewal batches() {
        Optional<BatchRenewal> offered = store.capabilities().batchRenewal();
        Assumptions.assumeTrue(offered.isPresent(), "the store renews in batches");
        return offered.get();
    }

    @Test
    void aFreeNameIsTakenWithAFencingTokenAndIsThenBusyForOtherTokens() {
        AcquireResult taken = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT);
        AcquireResult busy = store.tryAcquire("job", "B", LEASE, false, WAITER_TIMEOUT);

        assertThat(taken.acquired()).isTrue();
        assertThat(taken.fencingToken()).isPositive();
        assertThat(busy.acquired()).isFalse();
        assertThat(busy.holderLeaseMillis()).isPositive().isLessThanOrEqualTo(LEASE);
        assertThat(reads().isLocked("job")).isTrue();
        assertThat(reads().isLocked("other")).isFalse();
        LockSnapshot snapshot = reads().inspect("job");
        assertThat(snapshot.ownerToken()).isEqualTo("A");
        assertThat(snapshot.fencingToken()).isEqualTo(taken.fencingToken());
    }

    @Test
    void aTryRunTwiceReportsTheHoldItMadeWithTheSameFencingToken() {
        AcquireResult first = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT);
        AcquireResult again = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT);

        assertThat(again.acquired()).isTrue();
        assertThat(again.fencingToken()).isEqualTo(first.fencingToken());
    }

    @Test
    void fencingTokensGrowWithEveryHolder() {
        long last = 0;
        for (int i = 0; i < 20; i++) {
            AcquireResult taken = store.tryAcquire("job", "T" + i, LEASE, false, WAITER_TIMEOUT);
            assertThat(taken.acquired()).isTrue();
            assertThat(taken.fencingToken()).isGreaterThan(last);
            last = taken.fencingToken();
            assertThat(store.release("job", "T" + i, last)).isTrue();
        }
    }

    @Test
    void onlyTheOwnerReleasesAndARepeatedReleaseReportsTheReleaseItMade() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();

        assertThat(store.release("job", "B", fence + 1)).as("not the owner").isFalse();
        assertThat(reads().isLocked("job")).isTrue();
        assertThat(store.release("job", "A", fence)).isTrue();
        assertThat(reads().isLocked("job")).isFalse();
        assertThat(store.release("job", "A", fence)).as("run again").isTrue();

        store.tryAcquire("job", "B", LEASE, false, WAITER_TIMEOUT);
        assertThat(store.release("job", "A", fence)).as("run again after another owner took the lock").isTrue();
        assertThat(reads().inspect("job").ownerToken()).as("the other owner keeps it").isEqualTo("B");
    }

    /**
     * A release whose reply was lost, sent again once the client reconnected: however many owners took and released
     * the lock meanwhile (freed, handed to waiters, passed on), it finds that its first run released the hold, and
     * the lock stays with whoever holds it now.
     */
    @Test
    void aReleaseRunAgainFindsItsReleaseHoweverManyOwnersHeldTheLockSince() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.release("job", "A", fence)).isTrue();

        for (int i = 0; i < 3; i++) {
            long owner = store.tryAcquire("job", "B" + i, LEASE, false, WAITER_TIMEOUT).fencingToken();
            assertThat(store.release("job", "B" + i, owner)).isTrue();
        }
        assertThat(store.release("job", "A", fence)).as("freed, three owners later").isTrue();
        long held = store.tryAcquire("job", "C", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);
        assertThat(store.release("job", "C", held)).as("handed to the waiter").isTrue();
        long handed = store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT).fencingToken();
        PassOn passed = passingOn().passOn("job", "W", handed, "D", LEASE, false, WAITER_TIMEOUT);
        assertThat(passed.next().acquired()).isTrue();

        assertThat(store.release("job", "A", fence)).as("held by the sixth owner since").isTrue();
        assertThat(store.release("job", "W", handed)).as("the passing release run again").isTrue();
        assertThat(reads().inspect("job").ownerToken()).as("the holder keeps it").isEqualTo("D");
        assertThat(store.remainingLeaseMillis("job", "D")).isGreaterThan(WAITER_TIMEOUT);
    }

    /**
     * What a release run again cannot tell: once the name was lost since its first run (a later hold ran out, or the
     * freed lock's fence retention ended: nothing of the name is left), it answers not held, as for any hold whose
     * name was lost. The bound of the answer above.
     */
    @Test
    void aReleaseRunAgainAfterTheNameWasLostSinceIsNoRelease() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("job", "A", fence);
        store.tryAcquire("job", "B", 200, false, WAITER_TIMEOUT);
        awaitUntil(() -> !reads().isLocked("job"));
        long next = store.tryAcquire("job", "C", LEASE, false, WAITER_TIMEOUT).fencingToken();

        assertThat(store.release("job", "A", fence)).as("a later hold ran out").isFalse();

        long freed = store.tryAcquire("other", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("other", "A", freed);
        endFenceRetention("other");
        assertThat(store.release("job", "C", next)).isTrue();
        assertThat(store.release("other", "A", freed)).as("the fence retention ended").isFalse();
    }

    @Test
    void aReleaseOfANameNeverHeldIsNoRelease() {
        assertThat(store.release("job", "A", 1)).isFalse();
    }

    /**
     * An operator's forced release ends only the hold whose fencing token it names, and that hold counts as lost: its
     * owner can neither renew nor release it (a release run again included), and the next token is larger.
     */
    @Test
    void aForcedReleaseEndsOnlyTheHoldWithItsFencingTokenWhichItsOwnerThenFindsLost() {
        long stale = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.release("job", "A", stale);
        long fence = store.tryAcquire("job", "B", LEASE, false, WAITER_TIMEOUT).fencingToken();

        assertThat(forced().forceRelease("job", stale)).as("an earlier hold's token").isFalse();
        assertThat(forced().forceRelease("job", 0)).as("an unknown token").isFalse();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("B");
        assertThat(forced().forceRelease("job", fence)).isTrue();

        assertThat(reads().isLocked("job")).isFalse();
        assertThat(store.renew("job", "B", LEASE)).isFalse();
        assertThat(batches().renewAll(List.of(new Renewal("job", "B", LEASE)))).containsExactly(false);
        assertThat(store.release("job", "B", fence)).as("ended without its owner's release").isFalse();
        assertThat(forced().forceRelease("job", fence)).as("once").isFalse();
        long next = store.tryAcquire("job", "C", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(next).isGreaterThan(fence);
        assertThat(store.release("job", "B", fence)).as("not a release run again, whoever holds it since").isFalse();
        assertThat(forced().forceRelease("job", fence)).as("a later holder's lock").isFalse();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("C");
        assertThat(forced().forceRelease("never-held", 1)).isFalse();
    }

    @Test
    void aForcedReleaseHandsTheLockToTheFirstLiveWaiterWithALargerToken() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);

        assertThat(forced().forceRelease("job", fence)).isTrue();

        assertThat(store.tryAcquire("job", "N", LEASE, false, WAITER_TIMEOUT).acquired()).as("a newcomer").isFalse();
        AcquireResult handed = store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);
        assertThat(handed.acquired()).isTrue();
        assertThat(handed.fencingToken()).isGreaterThan(fence);
        assertThat(store.extend("job", "A", LEASE)).isFalse();
        assertThat(store.release("job", "A", fence)).isFalse();
        assertThat(store.release("job", "W", handed.fencingToken())).as("the waiter's own hold").isTrue();
    }

    @Test
    void extendSetsTheLeaseExactlyWhileRenewOnlyLengthensIt() {
        store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT);

        assertThat(store.extend("job", "A", 5_000)).isTrue();
        assertThat(store.remainingLeaseMillis("job", "A")).isPositive().isLessThanOrEqualTo(5_000);
        assertThat(store.renew("job", "A", 2_000)).as("held").isTrue();
        assertThat(store.remainingLeaseMillis("job", "A")).as("not shortened").isGreaterThan(2_000);
        assertThat(store.renew("job", "A", LEASE)).isTrue();
        assertThat(store.remainingLeaseMillis("job", "A")).as("lengthened").isGreaterThan(5_000);

        assertThat(store.extend("job", "B", LEASE)).as("not the owner").isFalse();
        assertThat(store.renew("job", "B", LEASE)).as("not the owner").isFalse();
        assertThat(store.remainingLeaseMillis("job", "B")).as("not the owner").isNegative();
    }

    @Test
    void renewAllRenewsEachHeldLockOnlyLongerAndTellsWhichAreNotHeld() {
        store.tryAcquire("a", "A", 5_000, false, WAITER_TIMEOUT);
        store.tryAcquire("b", "B", LEASE, false, WAITER_TIMEOUT);

        boolean[] owned = batches().renewAll(List.of(new Renewal("a", "A", LEASE), new Renewal("b", "B", 2_000),
                new Renewal("never-held", "C", LEASE), new Renewal("a", "not-the-owner", LEASE)));

        assertThat(owned).containsExactly(true, true, false, false);
        assertThat(store.remainingLeaseMillis("a", "A")).as("lengthened").isGreaterThan(5_000);
        assertThat(store.remainingLeaseMillis("b", "B")).as("not shortened").isGreaterThan(2_000);
        assertThat(reads().isLocked("never-held")).isFalse();
    }

    @Test
    void aReleaseHandsTheLockToTheFirstWaiterWithALargerTokenAndANewcomerFindsItBusy() {
        long first = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(store.tryAcquire("job", "W1", LEASE, true, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(store.tryAcquire("job", "W2", LEASE, true, WAITER_TIMEOUT).acquired()).isFalse();
        assertThat(reads().inspect("job").waiting()).isEqualTo(2);

        assertThat(store.release("job", "A", first)).isTrue();

        assertThat(store.tryAcquire("job", "N", LEASE, false, WAITER_TIMEOUT).acquired()).as("a newcomer").isFalse();
        assertThat(store.tryAcquire("job", "W2", LEASE, true, WAITER_TIMEOUT).acquired()).as("not first").isFalse();
        AcquireResult handed = store.tryAcquire("job", "W1", LEASE, true, WAITER_TIMEOUT);
        assertThat(handed.acquired()).isTrue();
        assertThat(handed.fencingToken()).isGreaterThan(first);
        assertThat(store.remainingLeaseMillis("job", "W1")).as("confirmed with its full lease").isGreaterThan(
                WAITER_TIMEOUT);
        assertThat(store.release("job", "A", first)).as("the handing release run again").isTrue();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("W1");
    }

    @Test
    void passingOnReleasesAndGivesTheLockToTheNextTokenWithALargerFencingToken() {
        long first = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();

        PassOn passed = passingOn().passOn("job", "A", first, "B", LEASE, true, WAITER_TIMEOUT);

        assertThat(passed.released()).isTrue();
        assertThat(passed.next().acquired()).isTrue();
        assertThat(passed.next().fencingToken()).isGreaterThan(first);
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("B");
        assertThat(store.remainingLeaseMillis("job", "B")).isGreaterThan(WAITER_TIMEOUT);
        assertThat(store.release("job", "A", first)).as("the passing release run again").isTrue();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("B");
        assertThat(store.release("job", "B", passed.next().fencingToken())).isTrue();
        assertThat(reads().isLocked("job")).isFalse();
    }

    /** Waiters of other processes, queued in the store, go first: the next token queues behind them. */
    @Test
    void passingOnWithWaitersQueuedHandsTheLockToTheFirstOfThemAndQueuesTheNextToken() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);

        PassOn passed = passingOn().passOn("job", "A", fence, "B", LEASE, true, WAITER_TIMEOUT);

        assertThat(passed.released()).isTrue();
        assertThat(passed.next().acquired()).as("behind the queued waiter").isFalse();
        AcquireResult handed = store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);
        assertThat(handed.acquired()).isTrue();
        assertThat(reads().inspect("job").waiting()).as("the next token, queued").isEqualTo(1);
        store.release("job", "W", handed.fencingToken());
        assertThat(store.tryAcquire("job", "B", LEASE, true, WAITER_TIMEOUT).acquired()).isTrue();
    }

    /** A hold that was lost is no release; the next token still tries, as {@code tryAcquire} would. */
    @Test
    void passingOnALostHoldReportsItAndTheNextTokenStillTries() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.abandon("job", "A");
        store.tryAcquire("job", "C", LEASE, false, WAITER_TIMEOUT);

        PassOn passed = passingOn().passOn("job", "A", fence, "B", LEASE, false, WAITER_TIMEOUT);

        assertThat(passed.released()).isTrue(); // A's release ran before (abandon): a release run again
        assertThat(passed.next().acquired()).isFalse();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("C");
        long lost = store.tryAcquire("other", "X", 200, false, WAITER_TIMEOUT).fencingToken();
        awaitUntil(() -> !reads().isLocked("other"));
        assertThat(passingOn().passOn("other", "X", lost, "Y", LEASE, false, WAITER_TIMEOUT).released())
                .as("a hold that ran out").isFalse();
    }

    @Test
    void aWaiterThatLeftIsNeverHandedTheLockAndLeavingAfterAHandOffKeepsIt() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "gone", LEASE, true, WAITER_TIMEOUT);
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);

        assertThat(queue().leaveQueue("job", "gone", LEASE).acquired()).isFalse();
        store.release("job", "A", fence);

        AcquireResult kept = queue().leaveQueue("job", "W", LEASE);
        assertThat(kept.acquired()).as("handed over before it left").isTrue();
        assertThat(kept.fencingToken()).isPositive();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("W");
        assertThat(store.remainingLeaseMillis("job", "W")).isGreaterThan(WAITER_TIMEOUT);
    }

    @Test
    void abandonLeavesNothingBehindForItsTokenAndTouchesNoOtherOwner() {
        store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);

        store.abandon("job", "W");
        assertThat(reads().inspect("job").waiting()).isZero();
        assertThat(reads().inspect("job").ownerToken()).isEqualTo("A");

        store.abandon("job", "A");
        assertThat(reads().isLocked("job")).isFalse();
        store.abandon("job", "A"); // run again: nothing to do
        assertThat(reads().isLocked("job")).isFalse();
    }

    @Test
    void aLeaseThatRunsOutFreesTheName() {
        long fence = store.tryAcquire("job", "A", 200, false, WAITER_TIMEOUT).fencingToken();

        awaitUntil(() -> !reads().isLocked("job"));

        assertThat(store.remainingLeaseMillis("job", "A")).isNegative();
        assertThat(store.extend("job", "A", LEASE)).as("too late").isFalse();
        assertThat(store.release("job", "A", fence)).as("expired, never released").isFalse();
        assertThat(store.tryAcquire("job", "B", LEASE, false, WAITER_TIMEOUT).acquired()).isTrue();
    }

    @Test
    void aWaiterWhoseEntryWentStaleIsSkippedByTheRelease() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "stale", LEASE, true, 200);
        store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT);

        awaitUntil(() -> reads().inspect("job").waiting() == 1);
        store.release("job", "A", fence);

        assertThat(store.tryAcquire("job", "W", LEASE, true, WAITER_TIMEOUT).acquired()).isTrue();
        assertThat(store.tryAcquire("job", "stale", LEASE, true, WAITER_TIMEOUT).acquired()).isFalse();
    }

    /** Behind a dead entry at the queue's head, so that a store reading its queue in parts must read on. */
    @Test
    void anInspectionListsTheFirstHundredLiveWaitersInQueueOrderAndCountsThemAll() {
        long fence = store.tryAcquire("job", "A", LEASE, false, WAITER_TIMEOUT).fencingToken();
        store.tryAcquire("job", "stale", LEASE, true, 200);
        List<String> queued = new ArrayList<>();
        for (int i = 0; i < LockSnapshot.MAX_WAITER_TOKENS + 5; i++) {
            queued.add("W" + i);
            store.tryAcquire("job", "W" + i, LEASE, true, WAITER_TIMEOUT);
        }
        awaitUntil(() -> reads().inspect("job").waiting() == queued.size());

        assertThat(reads().inspect("job").waiterTokens()).isEqualTo(queued.subList(0, LockSnapshot.MAX_WAITER_TOKENS));

        store.release("job", "A", fence);
        assertThat(store.tryAcquire("job", "W0", LEASE, true, WAITER_TIMEOUT).acquired()).isTrue();
        LockSnapshot served = reads().inspect("job");
        assertThat(served.waiting()).isEqualTo(queued.size() - 1);
        assertThat(served.waiterTokens()).isEqualTo(queued.subList(1, LockSnapshot.MAX_WAITER_TOKENS + 1));
        assertThat(reads().inspect("free").waiterTokens()).isEmpty();
    }

    @Test
    void aLockThatNeverExpiresIsToldAsNeverExpiresWhereverALeaseIsTold() {
        holdWithoutExpiry("job", "outsider");

        AcquireResult busy = store.tryAcquire("job", "B", LEASE, false, WAITER_TIMEOUT);
        assertThat(busy.acquired()).isFalse();
        assertThat(busy.holderLeaseMillis()).isEqualTo(LockStore.NEVER_EXPIRES);
        assertThat(reads().inspect("job").remainingLeaseMillis()).isEqualTo(LockStore.NEVER_EXPIRES);
        assertThat(store.remainingLeaseMillis("job", "outsider")).isEqualTo(LockStore.NEVER_EXPIRES);
        assertThat(store.remainingLeaseMillis("job", "B")).as("not the owner").isNegative();
        assertThat(reads().inspect("free").remainingLeaseMillis()).as("free").isZero();
    }

    /** Polls {@code condition} until it holds, for at most ten seconds. */
    protected static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within " + PATIENCE).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }
}
