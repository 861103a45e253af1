package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Semaphores with leased permits, between two registries (two processes) of one in-memory store: never more permits
 * held than declared, a fencing token per taking, waiters served in arrival order and a release handing freed
 * permits to as many of them as fit, several permits all or nothing, a mismatched count refused, a dead holder's
 * permits back at its lease end, a cancelled wait giving back what it took.
 */
@BoundedTest
class SemaphoreTest {

    private static final Duration NO_WAIT = Duration.ZERO;

    private final InMemoryLockStore store = new InMemoryLockStore();
    private final InMemoryLockRegistry one = InMemoryLockRegistry.builder().store(store).build();
    private final InMemoryLockRegistry two = InMemoryLockRegistry.builder().store(store).build();

    @AfterEach
    void close() {
        one.close();
        two.close();
    }

    private static DetachedLock await(CompletionStage<DetachedLock> taking) throws Exception {
        return EngineFixtures.await(taking, "the taking");
    }

    @Test
    void neverMorePermitsHeldThanDeclaredAcrossProcessesEachWithItsOwnGrowingToken() throws Exception {
        LeasedSemaphore here = one.semaphore("supplier", 3);
        LeasedSemaphore there = two.semaphore("supplier", 3);
        List<DetachedLock> held = new ArrayList<>();
        held.add(here.tryAcquire(NO_WAIT));
        held.add(there.tryAcquire(NO_WAIT));
        held.add(here.tryAcquire(NO_WAIT));

        assertThat(held).doesNotContainNull();
        assertThat(there.tryAcquire(NO_WAIT)).as("a fourth permit").isNull();
        assertThat(here.tryAcquire(NO_WAIT)).as("a fourth permit").isNull();
        assertThat(store.permitsInUse("supplier")).isEqualTo(3);
        assertThat(held).extracting(DetachedLock::fencingToken).isSorted().doesNotHaveDuplicates();

        held.get(1).unlock();
        DetachedLock next = here.tryAcquire(NO_WAIT);

        assertThat(next).isNotNull();
        assertThat(next.fencingToken()).isGreaterThan(held.get(2).fencingToken());
        next.unlock();
        held.get(0).unlock();
        held.get(2).unlock();
        assertThat(store.permitsInUse("supplier")).isZero();
    }

    @Test
    void aReleaseHandsFreedPermitsToTheWaitersInOrderAsLongAsEachFits() throws Exception {
        LeasedSemaphore here = one.semaphore("supplier", 3);
        LeasedSemaphore there = two.semaphore("supplier", 3);
        DetachedLock all = here.tryAcquire(3, NO_WAIT);
        CompletableFuture<DetachedLock> two1 = there.tryAcquireAsync(2, Duration.ofSeconds(30)).toCompletableFuture();
        EngineFixtures.awaitTrue(() -> store.waitersQueued("supplier") == 1, "the waiter for two queued");
        CompletableFuture<DetachedLock> one1 = there.tryAcquireAsync(1, Duration.ofSeconds(30)).toCompletableFuture();
        EngineFixtures.awaitTrue(() -> store.waitersQueued("supplier") == 2, "the waiter for one queued");
        CompletableFuture<DetachedLock> one2 = here.tryAcquireAsync(1, Duration.ofSeconds(30)).toCompletableFuture();

        all.unlock();

        DetachedLock first = await(two1);
        DetachedLock second = await(one1);
        assertThat(first.fencingToken()).as("the first in line first").isLessThan(second.fencingToken());
        assertThat(one2).as("no room for a fourth permit").isNotDone();
        second.unlock();
        DetachedLock third = await(one2);
        assertThat(store.permitsInUse("supplier")).isEqualTo(3);
        first.unlock();
        third.unlock();
    }

    @Test
    void aWaiterForSeveralPermitsIsNotOvertakenByLaterOnesForFewer() throws Exception {
        LeasedSemaphore here = one.semaphore("supplier", 3);
        LeasedSemaphore there = two.semaphore("supplier", 3);
        DetachedLock two1 = here.tryAcquire(2, NO_WAIT);
        CompletableFuture<DetachedLock> wantsTwo = there.tryAcquireAsync(2, Duration.ofSeconds(30))
                .toCompletableFuture();
        EngineFixtures.awaitTrue(() -> store.waitersQueued("supplier") == 1, "the waiter for two queued");

        assertThat(here.tryAcquire(1, NO_WAIT)).as("the free permit, kept for the head of the queue").isNull();
        assertThat(store.permitsInUse("supplier")).isEqualTo(2);
        two1.unlock();
        DetachedLock taken = await(wantsTwo);
        assertThat(store.permitsInUse("supplier")).isEqualTo(2);
        taken.unlock();
    }

    @Test
    void everyProcessMustDeclareTheSameNumberOfPermits() throws Exception {
        DetachedLock held = one.semaphore("supplier", 3).tryAcquire(NO_WAIT);

        assertThatThrownBy(() -> two.semaphore("supplier", 5).tryAcquire(NO_WAIT))
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("has 3 permits").hasMessageContaining("declares 5");
        assertThatThrownBy(() -> one.semaphore("supplier", 3).tryAcquire(4, NO_WAIT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 3");
        held.unlock();
        assertThat(two.semaphore("supplier", 5).tryAcquire(5, NO_WAIT)).as("declared anew once unused").isNotNull();
    }

    @Test
    void aDeadHoldersPermitsReturnAtItsLeaseEnd() throws Exception {
        store.takePermits("supplier", "a-process-that-died", 1, 1, 300, false, 0);
        LeasedSemaphore here = one.semaphore("supplier", 1);
        assertThat(here.tryAcquire(NO_WAIT)).isNull();

        DetachedLock after = here.tryAcquire(Duration.ofSeconds(10));

        assertThat(after).as("the permit, once the dead holder's 300 ms lease ran out").isNotNull();
        after.unlock();
    }

    @Test
    void aCancelledWaitGivesBackWhatItTookAndAClosedRegistryGivesBackItsPermits() throws Exception {
        LeasedSemaphore here = one.semaphore("supplier", 1);
        DetachedLock held = two.semaphore("supplier", 1).tryAcquire(NO_WAIT);
        CompletableFuture<DetachedLock> waiting = here.tryAcquireAsync(Duration.ofSeconds(30)).toCompletableFuture();
        waiting.cancel(false);
        held.unlock();
        EngineFixtures.awaitTrue(() -> store.permitsInUse("supplier") == 0, "nothing held");

        DetachedLock closing = here.tryAcquire(NO_WAIT);
        one.close();

        assertThat(closing.isHeld()).isFalse();
        // the cancelled wait's try may still land after the close gave the permit back: its clean-up gives it back too
        EngineFixtures.awaitTrue(() -> store.permitsInUse("supplier") == 0, "the permits given back");
        assertThat(two.semaphore("supplier", 1).tryAcquire(NO_WAIT)).isNotNull();
    }

    @Test
    void aNameIsASemaphoreOrALockWhileInUseAndAStoreWithoutPermitsSaysSo() throws Exception {
        DetachedLock permit = one.semaphore("shared", 2).tryAcquire(NO_WAIT);
        assertThatThrownBy(() -> two.obtain("shared").tryLock()).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("semaphore");
        permit.unlock();

        try (EngineFixtures.TestRegistry without = EngineFixtures.registry(new FaultyStore(),
                EngineFixtures.settings())) {
            assertThatThrownBy(() -> without.semaphore("shared", 2, Lease.renewed(), null))
                    .isInstanceOf(UnsupportedOperationException.class)
                    .hasMessageContaining("FaultyStore offers no semaphores");
        }
    }
}
