package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.LeasedSemaphore;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every registry whose backend queues waiters must do with semaphores of leased permits
 * ({@link LockRegistry#semaphore}), besides {@link ReadWriteLockContract}: never more permits held across processes
 * than declared, each taking a hold with its own growing fencing token, renewed and lost like a lock's; waiters served
 * in arrival order and a release handing freed permits to as many of them as fit; several permits all or nothing; a
 * count declared differently refused; a cancelled wait or a closed registry giving its permits back.
 */
public abstract class SemaphoreContract extends ReadWriteLockContract {

    private static final Duration NO_WAIT = Duration.ZERO;

    private static DetachedLock taken(CompletableFuture<DetachedLock> taking) throws Exception {
        return taking.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    @Test
    void semaphorePermitsAreNeverMoreThanDeclaredAcrossProcessesEachWithAGrowingToken() throws Exception {
        LeasedSemaphore here = registry().semaphore("sem-max", 3);
        LeasedSemaphore there = registry().semaphore("sem-max", 3);
        List<DetachedLock> held = new ArrayList<>(List.of(here.tryAcquire(NO_WAIT), there.tryAcquire(NO_WAIT),
                here.tryAcquire(NO_WAIT)));

        assertThat(held).doesNotContainNull();
        assertThat(there.asLock().isLocked()).as("a handle holding nothing").isFalse();
        assertThat(there.tryAcquire(NO_WAIT)).as("a fourth permit").isNull();
        assertThat(held).extracting(DetachedLock::fencingToken).isSorted().doesNotHaveDuplicates();
        held.get(1).unlock();
        DetachedLock next = there.tryAcquire(NO_WAIT);
        assertThat(next).as("the permit given back").isNotNull();
        assertThat(next.fencingToken()).isGreaterThan(held.get(2).fencingToken());
        assertThat(here.tryAcquire(NO_WAIT)).isNull();

        next.unlock();
        held.get(0).unlock();
        held.get(2).unlock();
        assertThat(here.tryAcquire(3, NO_WAIT)).as("all three free again").isNotNull().satisfies(DetachedLock::unlock);
    }

    @Test
    void semaphoreWaitersAreServedInArrivalOrderAndAReleaseLetsInAsManyAsFit() throws Exception {
        LockRegistry waiting = registry();
        LeasedSemaphore here = registry().semaphore("sem-order", 3);
        LeasedSemaphore there = waiting.semaphore("sem-order", 3);
        DetachedLock all = here.tryAcquire(3, NO_WAIT);
        CompletableFuture<DetachedLock> wantsTwo = there.tryAcquireAsync(2, PATIENCE).toCompletableFuture();
        awaitUntil(() -> waitersQueued(waiting, "sem-order") == 1);
        CompletableFuture<DetachedLock> wantsOne = there.tryAcquireAsync(1, PATIENCE).toCompletableFuture();
        awaitUntil(() -> waitersQueued(waiting, "sem-order") == 2);
        CompletableFuture<DetachedLock> wantsAnother = there.tryAcquireAsync(1, PATIENCE).toCompletableFuture();
        awaitUntil(() -> waitersQueued(waiting, "sem-order") == 3);
        assertThat(here.tryAcquire(NO_WAIT)).as("a newcomer behind the queue").isNull();

        all.unlock();

        DetachedLock two = taken(wantsTwo);
        DetachedLock one = taken(wantsOne);
        assertThat(two.fencingToken()).as("the first in line first").isLessThan(one.fencingToken());
        assertThat(wantsAnother).as("no room for a fourth permit").isNotDone();
        one.unlock();
        DetachedLock another = taken(wantsAnother);
        assertThat(here.tryAcquire(NO_WAIT)).as("three permits held").isNull();
        two.unlock();
        another.unlock();
    }

    @Test
    void semaphoreTakingsOfSeveralPermitsAreAllOrNothingAndNotOvertakenByFewer() throws Exception {
        LockRegistry waiting = registry();
        LeasedSemaphore here = registry().semaphore("sem-several", 3);
        DetachedLock twoHeld = here.tryAcquire(2, NO_WAIT);
        assertThat(here.tryAcquire(2, NO_WAIT)).as("two of the one left").isNull();
        CompletableFuture<DetachedLock> wantsTwo = waiting.semaphore("sem-several", 3).tryAcquireAsync(2, PATIENCE)
                .toCompletableFuture();
        awaitUntil(() -> waitersQueued(waiting, "sem-several") == 1);

        assertThat(here.tryAcquire(1, NO_WAIT)).as("the free permit, kept for the head of the queue").isNull();
        assertThat(registry().inspect("sem-several")).satisfies(info -> {
            assertThat(info.holds()).as("one taking").isEqualTo(1);
            assertThat(info.permitsInUse()).as("of two permits").isEqualTo(2);
            assertThat(info.permits()).isEqualTo(3);
            assertThat(info.fencingToken()).isEqualTo(twoHeld.fencingToken());
            assertThat(info.waiting()).isEqualTo(1);
        });
        twoHeld.unlock();

        taken(wantsTwo).unlock();
    }

    @Test
    void semaphoreCountsDeclaredDifferentlyAreRefusedWhileInUse() throws Exception {
        DetachedLock held = registry().semaphore("sem-count", 3).tryAcquire(NO_WAIT);
        LeasedSemaphore otherCount = registry().semaphore("sem-count", 5);

        assertThatThrownBy(() -> otherCount.tryAcquire(NO_WAIT)).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("has 3 permits").hasMessageContaining("declares 5");
        assertThatThrownBy(() -> otherCount.tryAcquire(6, NO_WAIT)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1 to 5");
        held.unlock();
        DetachedLock declaredAnew = otherCount.tryAcquire(5, NO_WAIT);
        assertThat(declaredAnew).as("declared anew once unused").isNotNull();
        declaredAnew.unlock();
    }

    @Test
    void semaphorePermitsAreRenewedWhileHeldAndTheirLeaseCanBeReadAndSet() throws Exception {
        LeasedSemaphore renewed = registry().semaphore("sem-lease", 1, Lease.renewed(Lease.MIN_RENEWED), null);
        DetachedLock held = renewed.tryAcquire(NO_WAIT);
        LeasedSemaphore other = registry().semaphore("sem-lease", 1);

        assertThat(other.tryAcquire(Lease.MIN_RENEWED.multipliedBy(3))).as("the permit, renewed past its lease")
                .isNull();
        assertThat(held.isHeld()).isTrue();
        held.extend(Duration.ofSeconds(20));
        assertThat(held.remainingLease()).isGreaterThan(Duration.ofSeconds(10));
        held.verifyHeld();
        held.unlock();
        assertThat(other.tryAcquire(NO_WAIT)).isNotNull().satisfies(DetachedLock::unlock);
    }

    @Test
    void aSemaphorePermitDeletedFromOutsideIsFoundLost() throws Exception {
        LockRegistry registry = registry();
        DetachedLock held = registry.semaphore("sem-deleted", 2).tryAcquire(NO_WAIT);

        deleteFromOutside(registry, "sem-deleted");

        assertThatThrownBy(held::verifyHeld).isInstanceOf(LockLostException.class);
        assertThat(held.whenEnded().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isNotNull();
        assertThatThrownBy(held::unlock).isInstanceOf(LockLostException.class);
    }

    @Test
    void aCancelledSemaphoreWaitAndAClosedRegistryGiveTheirPermitsBack() throws Exception {
        LockRegistry closing = registry();
        LeasedSemaphore other = registry().semaphore("sem-back", 1);
        DetachedLock held = other.tryAcquire(NO_WAIT);
        CompletableFuture<DetachedLock> waiting = closing.semaphore("sem-back", 1).tryAcquireAsync(PATIENCE)
                .toCompletableFuture();
        awaitUntil(() -> waitersQueued(closing, "sem-back") == 1);
        waiting.cancel(false);
        held.unlock();
        DetachedLock again = null;
        for (int i = 0; again == null && i < 100; i++) {
            again = other.tryAcquire(Duration.ofMillis(100)); // the cancelled waiter's claim, if any, is given back
        }
        assertThat(again).isNotNull();
        again.unlock();

        DetachedLock closed = closing.semaphore("sem-back", 1).tryAcquire(NO_WAIT);
        ((AutoCloseable) closing).close();

        assertThat(closed.isHeld()).isFalse();
        assertThat(other.tryAcquire(PATIENCE)).as("given back by the close").isNotNull()
                .satisfies(DetachedLock::unlock);
    }

    @Test
    void aNameIsASemaphoreOrALockWhileInUse() throws Exception {
        LockRegistry registry = registry();
        DetachedLock permit = registry.semaphore("sem-or-lock", 2).tryAcquire(NO_WAIT);
        assertThatThrownBy(() -> registry().obtain("sem-or-lock").tryLock()).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("semaphore");
        permit.unlock();

        var lock = registry().obtain("sem-or-lock");
        assertThat(lock.tryLock()).as("a lock once the semaphore is unused").isTrue();
        assertThatThrownBy(() -> registry.semaphore("sem-or-lock", 2).tryAcquire(NO_WAIT))
                .isInstanceOf(LockBackendException.class).hasMessageContaining("lock");
        long lockToken = lock.fencingToken();
        lock.unlock();
        DetachedLock afterLock = registry.semaphore("sem-or-lock", 2).tryAcquire(NO_WAIT);
        assertThat(afterLock.fencingToken()).as("tokens grow across the change of kind").isGreaterThan(lockToken);
        afterLock.unlock();
    }
}
