package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockSnapshot;
import org.junit.jupiter.api.Test;

/**
 * The life of an in-memory semaphore, on a clock moved by hand: a release run again is reported within the name's
 * life, never for a token not issued, still held or lost; at most 32 lost tokens are remembered; an idle semaphore is
 * kept for the fencing-token retention after its last use, a deleted one is forgotten; and a name is a lock or a
 * semaphore while in use, either once free.
 */
class InMemoryPermitLifeTest extends MemoryFixtures.StoreOnManualClock {

    private static final long RETENTION = MemoryFixtures.RETENTION.toMillis();

    private AcquireResult take(String name, String token, int limit, long leaseMillis) {
        return store.takePermits(name, token, 1, limit, leaseMillis, false, WAITER_TIMEOUT);
    }

    @Test
    void aReleaseRunAgainIsReportedWithinTheLifeButNotForATokenNeverIssuedOrStillHeld() {
        long a = take("s", "a", 3, LEASE).fencingToken();
        long b = take("s", "b", 3, LEASE).fencingToken();
        assertThat(store.release("s", "a", a)).isTrue();
        assertThat(store.release("s", "a", a)).as("the life's first token, again").isTrue();
        assertThat(store.release("s", "b", b)).isTrue();
        assertThat(store.release("s", "b", b)).as("the last token issued, again").isTrue();
        assertThat(store.release("s", "b", b + 1)).as("never issued").isFalse();
        assertThat(store.release("s", "a", a - 1)).as("before the life").isFalse();

        long c = take("s", "c", 3, LEASE).fencingToken();
        assertThat(store.release("s", "a", a)).as("the life goes on").isTrue();
        assertThat(store.release("s", "x", c)).as("c still holds").isFalse();
        assertThat(store.permitsInUse("s")).isOne();
    }

    @Test
    void aHolderWhoseLeaseRanOutFindsItsPermitsLostAndTheReleasesBeforeItStayReleased() {
        long r = take("s", "r", 3, LEASE).fencingToken();
        store.release("s", "r", r);
        long d = take("s", "d", 3, 1_000).fencingToken();
        clock.advance(1_000);

        assertThat(store.release("s", "d", d)).isFalse();
        assertThat(store.release("s", "r", r)).isTrue();
        take("s", "c", 3, LEASE);
        assertThat(store.release("s", "d", d)).isFalse();
        assertThat(store.release("s", "r", r)).isTrue();
    }

    @Test
    void aSemaphoreRemembersAtMost32LostTokensAndForgetsTheReleasesBeforeTheOldestItDrops() {
        long r = take("s", "r", 40, LEASE).fencingToken();
        store.release("s", "r", r);
        for (int i = 0; i < 32; i++) {
            take("s", "lost" + i, 40, 1_000);
        }
        long q = take("s", "q", 40, LEASE).fencingToken();
        store.release("s", "q", q);
        clock.advance(1_000);
        assertThat(store.permitsInUse("s")).isZero();
        assertThat(store.release("s", "r", r)).as("32 lost tokens remembered").isTrue();

        long last = take("s", "last", 40, 1_000).fencingToken();
        clock.advance(1_000);
        assertThat(store.permitsInUse("s")).isZero();

        assertThat(store.release("s", "r", r)).as("before the oldest lost token, forgotten").isFalse();
        assertThat(store.release("s", "lost0", r + 1)).isFalse();
        assertThat(store.release("s", "lost1", r + 2)).isFalse();
        assertThat(store.release("s", "last", last)).isFalse();
        assertThat(store.release("s", "q", q)).as("after it, still released").isTrue();
    }

    @Test
    void aNewLifeForgetsTheLostTokensOfTheLifeBeforeItSoTheyNeverMoveItsOriginBack() {
        take("s", "old-lost", 40, RETENTION);
        long oldReleased = take("s", "old-released", 40, LEASE).fencingToken();
        store.release("s", "old-released", oldReleased);
        store.takePermits("s", "w", 40, 40, LEASE, true, RETENTION * 3);
        clock.advance(RETENTION);
        assertThat(store.takePermits("s", "w", 40, 40, LEASE, true, RETENTION * 3).acquired()).isTrue();
        store.keepPermits("s", "w", 1);
        for (int i = 0; i < 32; i++) {
            take("s", "lost" + i, 40, 1_000);
        }
        clock.advance(1_000);

        assertThat(store.permitsInUse("s")).as("w's permit").isOne();
        assertThat(store.release("s", "old-released", oldReleased)).as("a release of the life before").isFalse();
    }

    @Test
    void anIdleSemaphoreKeepsItsLifeForTheRetentionAfterItsLastRelease() {
        long a = take("s", "a", 3, LEASE).fencingToken();
        clock.advance(1_000);
        store.release("s", "a", a);
        clock.advance(RETENTION - 1);

        assertThat(store.release("s", "a", a)).isTrue();
        assertThat(store.inspect("s").permits()).isEqualTo(3);
        assertThat(store.isLocked("s")).isFalse();
        assertThat(store.permitsInUse("s")).isZero();
        assertThat(store.waitersQueued("s")).isZero();

        clock.advance(1);
        assertThat(store.release("s", "a", a)).isFalse();
        assertThat(store.inspect("s")).isEqualTo(new LockSnapshot(null, 0, 0, 0));
    }

    @Test
    void aLifeGoesOnWhileAHolderLivesAndEndsWhenNobodyHoldsOnceTheRetentionIsOver() {
        long r = take("n", "r", 2, LEASE).fencingToken();
        store.release("n", "r", r);
        take("n", "b", 2, RETENTION * 3);
        long s = take("m", "s", 1, LEASE).fencingToken();
        store.release("m", "s", s);
        long a = take("m", "a", 1, RETENTION).fencingToken();
        store.takePermits("m", "w", 1, 1, LEASE, true, RETENTION * 3);
        clock.advance(RETENTION); // a's lease and the retention of the last use end at this instant

        assertThat(take("n", "c", 2, LEASE).acquired()).isTrue();
        assertThat(store.release("n", "r", r)).as("b held all along").isTrue();

        AcquireResult w = store.takePermits("m", "w", 1, 1, LEASE, true, RETENTION * 3);
        assertThat(w.acquired()).isTrue();
        assertThat(w.fencingToken()).isGreaterThan(a);
        assertThat(store.release("m", "s", s)).as("a new life").isFalse();
        assertThat(store.release("m", "a", a)).isFalse();
    }

    @Test
    void aDeletedSemaphoreIsForgottenAndItsHoldersFindTheirPermitsLost() {
        long a = take("s", "a", 3, LEASE).fencingToken();
        long b = take("s", "b", 3, LEASE).fencingToken();

        store.delete("s");

        assertThat(store.permitsInUse("s")).isZero();
        assertThat(store.isLocked("s")).isFalse();
        assertThat(store.release("s", "a", a)).isFalse();
        assertThat(store.extend("s", "b", LEASE)).isFalse();
        assertThat(store.remainingLeaseMillis("s", "b")).isEqualTo(-1);
        assertThat(store.inspect("s")).isEqualTo(new LockSnapshot(null, 0, 0, 0));
        assertThat(take("s", "c", 3, LEASE).fencingToken()).as("the count lives on").isEqualTo(b + 1);
    }

    @Test
    void aNameIsALockOrASemaphoreWhileHeldOrWaitedForAndEitherOnceFree() {
        store.tryAcquire("lock", "a", LEASE, false, WAITER_TIMEOUT);
        store.tryAcquire("queued", "a", 1_000, false, WAITER_TIMEOUT);
        store.tryAcquire("queued", "w", LEASE, true, 5_000);
        take("sem", "a", 1, LEASE);
        take("waited", "a", 1, 1_000);
        store.takePermits("waited", "w", 1, 1, LEASE, true, 5_000);
        take("ran-out", "a", 1, 1_000);
        assertThatThrownBy(() -> take("lock", "b", 1, LEASE)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("is a lock now");
        assertThatThrownBy(() -> store.tryAcquire("sem", "b", LEASE, false, WAITER_TIMEOUT))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("is a semaphore now");

        clock.advance(1_000); // the holds ran out, their waiters are queued still
        assertThatThrownBy(() -> take("queued", "b", 1, LEASE)).isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> store.tryAcquire("waited", "b", LEASE, false, WAITER_TIMEOUT))
                .isInstanceOf(IllegalStateException.class);
        assertThat(store.tryAcquire("ran-out", "b", LEASE, false, WAITER_TIMEOUT).acquired())
                .as("no permit held, none waited for").isTrue();

        long permit = take("free", "a", 1, LEASE).fencingToken();
        store.release("free", "a", permit);
        long lock = store.tryAcquire("free", "b", LEASE, false, WAITER_TIMEOUT).fencingToken();
        assertThat(lock).isGreaterThan(permit);
        assertThat(store.release("free", "b", lock)).isTrue();
        assertThat(store.isLocked("free")).isFalse();
        long again = take("free", "c", 1, LEASE).fencingToken();
        assertThat(again).isGreaterThan(lock);
        assertThat(store.release("free", "c", again)).isTrue();
    }
}
