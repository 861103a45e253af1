package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.LockBackendException;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.ConcurrentModificationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.dao.CannotAcquireLockException;
import org.springframework.integration.support.locks.DistributedLock;
import org.springframework.integration.support.locks.ExpirableLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.integration.support.locks.RenewableLockRegistry;

/** Spring Integration's lock registry contract, as its users call it, on distlock (in memory, or scripted faults). */
class DistlockIntegrationLockRegistryTest {

    private final InMemoryLockRegistry distlock = InMemoryLockRegistry.builder().build();
    private final DistlockIntegrationLockRegistry registry = new DistlockIntegrationLockRegistry(distlock,
            Duration.ofSeconds(30));
    private final DistlockIntegrationLockRegistry expiring = new DistlockIntegrationLockRegistry(distlock,
            Duration.ofSeconds(30), LeaseMode.EXPIRING);
    private final ScriptedLockStore store = new ScriptedLockStore();
    private final ScriptedLockRegistry scripted = ScriptedLockRegistry.on(store).build();

    @AfterEach
    void close() {
        distlock.close();
        scripted.close();
    }

    @Test
    void theRegistryAndItsLocksAreOfSpringIntegrationsTypesWhereItsCodeCastsThem() {
        LockRegistry<?> asSpringIntegrationSeesIt = registry;
        assertThat(asSpringIntegrationSeesIt).isInstanceOf(ExpirableLockRegistry.class)
                .isInstanceOf(RenewableLockRegistry.class);
        assertThat(asSpringIntegrationSeesIt.obtain("orders")).isInstanceOf(DistributedLock.class);
    }

    @Test
    void aLockIsReentrantForItsThreadAndExcludesOthers() throws Exception {
        Lock lock = registry.obtain("orders");
        lock.lock();
        assertThat(lock.tryLock()).as("re-entrant").isTrue();
        lock.unlock();

        assertThat(CompletableFuture.supplyAsync(() -> registry.obtain("orders").tryLock()).get(30, TimeUnit.SECONDS))
                .isFalse();
        lock.unlock();
        assertThat(CompletableFuture.supplyAsync(() -> {
            Lock other = registry.obtain("orders");
            boolean got = other.tryLock();
            other.unlock();
            return got;
        }).get(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void executeLockedRunsUnderTheLockAndTimesOutWhenItStaysBusy() throws Exception {
        assertThat(registry.executeLocked("report", () -> distlock.obtain("report").isHeldByCurrentThread()))
                .isTrue();

        CompletableFuture.runAsync(distlock.obtain("busy")::lock).get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> registry.executeLocked("busy", Duration.ofMillis(50), () -> { }))
                .isInstanceOf(TimeoutException.class);
    }

    @Test
    void aLockTakenWithATimeToLiveOfItsOwnHoldsForThatLong() throws InterruptedException {
        DistributedLock lock = expiring.obtain("custom");
        lock.lock(Duration.ofMinutes(5));
        assertThat(expiring.obtain("custom").fencedLock().remainingLease()).isGreaterThan(Duration.ofMinutes(4));
        lock.unlock();

        assertThat(lock.tryLock(Duration.ofSeconds(1), Duration.ofMillis(800))).isTrue();
        assertThat(expiring.obtain("custom").fencedLock().remainingLease()).isLessThanOrEqualTo(Duration.ofMillis(800));
        lock.unlock();
    }

    @Test
    void aTimeToLiveShorterThanDistlockHoldsIsHeldAsTheShortestItHolds() throws InterruptedException {
        DistlockIntegrationLock lock = expiring.obtain("short");
        // a lease of 1 ms would never count: no answer comes with a tenth of it left
        assertThat(lock.tryLock(Duration.ofSeconds(10), Duration.ofMillis(1))).isTrue();
        assertThat(lock.fencedLock().remainingLease())
                .isLessThanOrEqualTo(DistlockIntegrationLockRegistry.MIN_EXPIRE_AFTER);
        try {
            lock.unlock();
        } catch (ConcurrentModificationException expiredMeanwhile) {
            // 100 ms may be over already on a busy machine
        }

        DistlockIntegrationLock renewed = registry.obtain("short");
        renewed.lock(Duration.ofMillis(100));
        assertThat(renewed.fencedLock().remainingLease()).isGreaterThan(Duration.ofMillis(100));
        renewed.unlock();
    }

    @Test
    void anExpiringLockAcquiredAgainByItsThreadTakesTheNewTimeToLiveAsSpringIntegrationsDo() throws Exception {
        DistlockIntegrationLockRegistry expiringOnScript = new DistlockIntegrationLockRegistry(scripted,
                Duration.ofSeconds(1), LeaseMode.EXPIRING);
        DistlockIntegrationLock lock = expiringOnScript.obtain("leader");
        lock.lock();
        assertThat(lock.tryLock(Duration.ZERO, Duration.ofMinutes(5))).isTrue();
        assertThat(lock.fencedLock().remainingLease()).isGreaterThan(Duration.ofMinutes(4));
        assertThat(store.calls(Op.EXTEND, "leader")).isEqualTo(1);
        lock.unlock();
        lock.unlock();

        DistlockIntegrationLock renewed = new DistlockIntegrationLockRegistry(scripted, Duration.ofSeconds(1))
                .obtain("renewed");
        renewed.lock();
        renewed.lock();
        assertThat(store.calls(Op.EXTEND, "renewed")).as("the watchdog renews it").isZero();
        renewed.unlock();
        renewed.unlock();
    }

    @Test
    void renewLockSetsTheTimeToLiveOfTheCurrentThreadsHoldOnly() {
        DistlockIntegrationLock lock = expiring.obtain("renewed");
        lock.lock();
        expiring.renewLock("renewed", Duration.ofMinutes(5));
        assertThat(lock.fencedLock().remainingLease()).isGreaterThan(Duration.ofMinutes(4));
        expiring.renewLock("renewed");
        assertThat(lock.fencedLock().remainingLease()).isLessThanOrEqualTo(Duration.ofSeconds(30));
        lock.unlock();

        assertThatThrownBy(() -> expiring.renewLock("renewed"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'renewed'");
    }

    @Test
    void anUnlockByAThreadThatDoesNotHoldTheLockIsAnIllegalStateExceptionAsInSpringIntegration() throws Exception {
        DistlockIntegrationLock lock = registry.obtain("owned");
        lock.lock();
        Throwable refused = CompletableFuture.supplyAsync(() -> {
            try {
                lock.unlock();
                return null;
            } catch (RuntimeException ex) {
                return ex;
            }
        }).get(30, TimeUnit.SECONDS);
        assertThat(refused).isInstanceOf(IllegalStateException.class).hasMessageContaining("'owned'");
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
    }

    @Test
    void anAcquisitionTheBackendFailsIsACannotAcquireLockExceptionAsInSpringIntegration() {
        DistlockIntegrationLock lock = new DistlockIntegrationLockRegistry(scripted, Duration.ofSeconds(1))
                .obtain("failing");
        store.next(Op.ACQUIRE, "failing").fail(new IllegalArgumentException("ERR wrong number of arguments"));
        assertThatThrownBy(lock::lock).isInstanceOf(CannotAcquireLockException.class)
                .hasMessageContaining("'failing'").hasMessageContaining("ERR wrong number of arguments")
                .hasCauseInstanceOf(LockBackendException.class);
        assertThat(lock.isHeldByCurrentThread()).isFalse();
    }

    @Test
    void obtainGivesTheSameLockForAKeyUntilItIsExpiredUnused() {
        DistlockIntegrationLock used = registry.obtain("used");
        DistlockIntegrationLock held = registry.obtain("held");
        DistlockIntegrationLock neverLocked = registry.obtain("never");
        assertThat(registry.obtain("used")).isSameAs(used);
        used.lock();
        used.unlock();
        held.lock();

        registry.expireUnusedOlderThan(-1);

        assertThat(registry.obtain("used")).isNotSameAs(used);
        assertThat(registry.obtain("held")).isSameAs(held);
        assertThat(registry.obtain("never")).isSameAs(neverLocked);
        registry.expireUnusedOlderThan(Duration.ofHours(1).toMillis());
        assertThat(registry.obtain("held")).isSameAs(held);
        held.unlock();
    }

    @Test
    void aKeyThatIsNoStringIsRefusedAsSpringIntegrationRefusesIt() {
        assertThatThrownBy(() -> registry.obtain(42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Integer");
    }
}
