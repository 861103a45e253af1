package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockSnapshot;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The in-memory store's semaphores as counted holds, on a clock moved by hand: permits counted exactly against the
 * declared number, a fencing token per taking, owner-checked commands, each lease freeing exactly its own permits at
 * its instant, repeated takings, and what a busy answer and an inspection tell.
 */
class InMemoryPermitsTest extends MemoryFixtures.StoreOnManualClock {

    private static final int LIMIT = 3;

    private AcquireResult take(String token, int count, long leaseMillis) {
        return store.takePermits("s", token, count, LIMIT, leaseMillis, false, WAITER_TIMEOUT);
    }

    @Test
    void permitsFitUpToTheDeclaredNumberExactlyEachTakingWithItsOwnGrowingFencingToken() {
        AcquireResult a = take("a", 2, LEASE);
        assertThat(a.acquired()).isTrue();
        assertThat(a.fencingToken()).isEqualTo(T0 * 1_000);
        assertThat(a.serverTimeMillis()).isEqualTo(T0);

        assertThat(take("b", 2, LEASE).acquired()).as("2 + 2 of 3").isFalse();
        AcquireResult b = take("b", 1, LEASE);
        assertThat(b.acquired()).as("2 + 1 of 3: the last permit").isTrue();
        assertThat(b.fencingToken()).isEqualTo(T0 * 1_000 + 1);
        assertThat(take("c", 1, LEASE).acquired()).isFalse();

        assertThat(store.permitsInUse("s")).isEqualTo(3);
        assertThat(store.isLocked("s")).isTrue();
        assertThat(store.heldNames()).as("no lock of that name").isEmpty();
        assertThat(store.inspect("s")).isEqualTo(new LockSnapshot("b", b.fencingToken(), LEASE, 0, List.of(), 2, 3,
                LIMIT));
    }

    @Test
    void aBusyAnswerTellsTheLeaseLeftOfTheHolderWhosePermitsComeBackFirst() {
        take("a", 2, LEASE);
        clock.advance(1_000);
        take("b", 1, 3_000);

        AcquireResult busy = take("c", 1, LEASE);

        assertThat(busy.acquired()).isFalse();
        assertThat(busy.holderLeaseMillis()).as("b's 3 s, not a's 9 s").isEqualTo(3_000);
        assertThat(busy.serverTimeMillis()).isEqualTo(T0 + 1_000);
    }

    @Test
    void aLeaseThatRunsOutFreesExactlyItsOwnPermitsAtItsInstant() {
        long a = take("a", 2, 5_000).fencingToken();
        take("b", 1, LEASE);
        clock.advance(4_999);
        assertThat(store.permitsInUse("s")).isEqualTo(3);
        assertThat(store.remainingLeaseMillis("s", "a")).isEqualTo(1);

        clock.advance(1);
        assertThat(store.permitsInUse("s")).isEqualTo(1);
        assertThat(store.remainingLeaseMillis("s", "a")).isEqualTo(-1);
        assertThat(store.remainingLeaseMillis("s", "b")).isEqualTo(LEASE - 5_000);
        assertThat(store.isLocked("s")).isTrue();
        assertThat(store.extend("s", "a", LEASE)).isFalse();
        assertThat(store.release("s", "a", a)).as("its permits were lost, not released").isFalse();
        assertThat(take("c", 2, LEASE).acquired()).as("1 + 2 of 3").isTrue();

        clock.advance(LEASE - 5_000);
        assertThat(store.permitsInUse("s")).as("b's lease ended; c's runs").isEqualTo(2);
    }

    @Test
    void onlyTheOwnerOfPermitsReleasesExtendsRenewsOrReadsTheirLease() {
        long a = take("a", 1, LEASE).fencingToken();
        long b = take("b", 1, LEASE).fencingToken();

        assertThat(store.release("s", "x", a)).as("a's fencing token, a's permits still held").isFalse();
        assertThat(store.extend("s", "x", 60_000)).isFalse();
        assertThat(store.renew("s", "x", 60_000)).isFalse();
        assertThat(store.remainingLeaseMillis("s", "x")).isEqualTo(-1);
        store.abandon("s", "x");
        assertThat(store.permitsInUse("s")).isEqualTo(2);

        assertThat(store.extend("s", "a", 1_000)).isTrue();
        assertThat(store.remainingLeaseMillis("s", "a")).as("an extend shortens too").isEqualTo(1_000);
        assertThat(store.renew("s", "a", 500)).isTrue();
        assertThat(store.remainingLeaseMillis("s", "a")).as("a renewal never shortens").isEqualTo(1_000);
        assertThat(store.renew("s", "a", 5_000)).isTrue();
        assertThat(store.remainingLeaseMillis("s", "a")).isEqualTo(5_000);
        assertThat(store.remainingLeaseMillis("s", "b")).as("b's lease untouched").isEqualTo(LEASE);

        assertThat(store.release("s", "a", a)).isTrue();
        assertThat(store.permitsInUse("s")).isEqualTo(1);
        assertThat(store.release("s", "a", b)).as("b's token, still held by b").isFalse();
        assertThat(store.release("s", "b", b)).isTrue();
        assertThat(store.permitsInUse("s")).isZero();
        assertThat(store.isLocked("s")).isFalse();
    }

    @Test
    void aRepeatedTakingAnswersWithTheSameFencingTokenAndTheFullLeaseAndTakesNoMorePermits() {
        long first = take("a", 2, LEASE).fencingToken();
        clock.advance(4_000);

        AcquireResult again = take("a", 2, LEASE);

        assertThat(again.acquired()).isTrue();
        assertThat(again.fencingToken()).isEqualTo(first);
        assertThat(again.serverTimeMillis()).isEqualTo(T0 + 4_000);
        assertThat(store.remainingLeaseMillis("s", "a")).isEqualTo(LEASE);
        assertThat(store.permitsInUse("s")).isEqualTo(2);
    }

    @Test
    void everyHolderMustDeclareTheSameNumberOfPermitsButAnIdleSemaphoreTakesANewOne() {
        long a = take("a", 1, LEASE).fencingToken();

        assertThatThrownBy(() -> store.takePermits("s", "b", 1, 4, LEASE, false, WAITER_TIMEOUT))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("has 3 permits")
                .hasMessageContaining("declares 4");
        assertThat(store.permitsInUse("s")).isEqualTo(1);

        store.release("s", "a", a);
        assertThat(store.takePermits("s", "b", 4, 4, LEASE, false, WAITER_TIMEOUT).acquired()).isTrue();
        assertThat(store.inspect("s").permits()).isEqualTo(4);
        assertThat(store.permitsInUse("s")).isEqualTo(4);
    }

    @Test
    void inspectingASemaphoreCountsItsHoldsDescribesTheNewestAndListsItsWaiters() {
        take("a", 1, LEASE);
        clock.advance(1_000);
        long b = take("b", 2, 3_000).fencingToken();
        store.takePermits("s", "c", 1, LIMIT, LEASE, true, WAITER_TIMEOUT);
        store.takePermits("s", "d", 2, LIMIT, LEASE, true, WAITER_TIMEOUT);

        assertThat(store.inspect("s")).isEqualTo(new LockSnapshot("b", b, 3_000, 2, List.of("c", "d"), 2, 3, LIMIT));
        assertThat(store.waitersQueued("s")).isEqualTo(2);

        store.abandon("s", "c");
        store.abandon("s", "d");
        store.abandon("s", "a");
        store.abandon("s", "b");
        assertThat(store.inspect("s")).as("idle, its fencing count kept")
                .isEqualTo(new LockSnapshot(null, 0, 0, 0, List.of(), 0, 0, LIMIT));
        assertThat(store.waitersQueued("s")).isZero();
    }
}
