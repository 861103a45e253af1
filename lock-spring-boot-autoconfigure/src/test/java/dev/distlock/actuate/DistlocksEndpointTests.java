package dev.distlock.actuate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.actuate.DistlocksEndpoint.HeldLockDescriptor;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** What the distlocks endpoint answers for registries holding locks. */
class DistlocksEndpointTests {

    private final InMemoryLockRegistry orders = InMemoryLockRegistry.builder().defaultLease(Duration.ofMinutes(1))
            .build();

    private final InMemoryLockRegistry jobs = InMemoryLockRegistry.builder().build();

    private final List<FencedLock> held = new ArrayList<>();

    @AfterEach
    void releaseAndClose() {
        held.forEach(FencedLock::unlock);
        orders.close();
        jobs.close();
    }

    @Test
    void listsEveryHoldWithItsKeyLabelTokenAgeAndLease() {
        Instant before = Instant.now();
        FencedLock pay = hold(orders, "order:42", Lease.renewed(), "OrderService.pay");
        FencedLock report = hold(orders, "report", Lease.fixed(Duration.ofSeconds(20)), null);
        Instant after = Instant.now();

        List<HeldLockDescriptor> locks = new DistlocksEndpoint(Map.of("orderLocks", orders)).locks().locks();

        assertThat(locks).extracting(HeldLockDescriptor::name).containsExactly("order:42", "report");
        HeldLockDescriptor first = locks.get(0);
        assertThat(first.registry()).isEqualTo("orderLocks");
        assertThat(first.key()).isEqualTo("order:42"); // in-memory locks have no other key
        assertThat(first.label()).isEqualTo("OrderService.pay");
        assertThat(first.fencingToken()).isEqualTo(pay.fencingToken());
        assertThat(Instant.parse(first.heldSince())).isBetween(before.truncatedTo(ChronoUnit.MILLIS), after);
        assertThat(first.remainingLeaseMillis()).isBetween(1L, Duration.ofMinutes(1).toMillis());
        assertThat(first.renewed()).isTrue();
        HeldLockDescriptor second = locks.get(1);
        assertThat(second.label()).isNull();
        assertThat(second.fencingToken()).isEqualTo(report.fencingToken());
        assertThat(second.remainingLeaseMillis()).isBetween(1L, Duration.ofSeconds(20).toMillis());
        assertThat(second.renewed()).isFalse();
    }

    @Test
    void listsTheHoldsOfEveryRegistryByBeanNameThenLockName() {
        hold(orders, "b", Lease.renewed(), null);
        hold(orders, "a", Lease.renewed(), null);
        hold(jobs, "z", Lease.renewed(), null);

        List<HeldLockDescriptor> locks = new DistlocksEndpoint(Map.of("orderLocks", orders, "jobLocks", jobs))
                .locks().locks();

        assertThat(locks).extracting(lock -> lock.registry() + "/" + lock.name())
                .containsExactly("jobLocks/z", "orderLocks/a", "orderLocks/b");
    }

    @Test
    void forgetsReleasedLocksAndAnswersAnEmptyListWhenNothingIsHeld() {
        FencedLock lock = orders.obtain("order:42");
        lock.lock();
        lock.unlock();

        assertThat(new DistlocksEndpoint(Map.<String, LockRegistry>of("orderLocks", orders)).locks().locks())
                .isEmpty();
    }

    private FencedLock hold(LockRegistry registry, String name, Lease lease, String label) {
        FencedLock lock = registry.obtain(name, lease, label);
        lock.lock();
        held.add(lock);
        return lock;
    }
}
