package dev.distlock.actuate;

import static dev.distlock.actuate.Waiting.awaitUntil;
import static dev.distlock.actuate.Waiting.waitFor;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.actuate.DistlocksEndpoint.HeldLockDescriptor;
import dev.distlock.actuate.DistlocksEndpoint.LockInfoDescriptor;
import dev.distlock.actuate.DistlocksEndpoint.Waiter;
import dev.distlock.core.DetachedLock;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
    void describesAReadWriteLockByItsReadersAndNewestHold() throws Exception {
        DetachedLock first = orders.readWriteLock("prices").readLock().tryLockAsync(Duration.ZERO)
                .toCompletableFuture().get(10, TimeUnit.SECONDS);
        DetachedLock second = orders.readWriteLock("prices").readLock().tryLockAsync(Duration.ZERO)
                .toCompletableFuture().get(10, TimeUnit.SECONDS);

        LockInfoDescriptor prices = new DistlocksEndpoint(Map.of("orderLocks", orders)).lock("prices").locks()
                .get(0);

        assertThat(prices.held()).isTrue();
        assertThat(prices.holds()).as("two readers").isEqualTo(2);
        assertThat(prices.permitsInUse()).isEqualTo(2);
        assertThat(prices.permits()).isEqualTo(1 << 20);
        assertThat(prices.fencingToken()).as("the newest").isEqualTo(second.fencingToken());
        first.unlock();
        second.unlock();
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

    @Test
    void looksUpOneNameWithItsHolderAndTheProcessesQueuedForItInOrder() throws Exception {
        InMemoryLockRegistry shipping = InMemoryLockRegistry.builder().store(orders.store())
                .applicationName("shipping").build();
        InMemoryLockRegistry invoicing = InMemoryLockRegistry.builder().store(orders.store())
                .applicationName("invoicing").build();
        DistlocksEndpoint endpoint = new DistlocksEndpoint(Map.of("orderLocks", orders));
        FencedLock pay = hold(orders, "order:42", Lease.renewed(), null);
        try {
            CompletableFuture<Boolean> first = waitFor(shipping.obtain("order:42"), Duration.ofSeconds(10));
            awaitUntil(() -> endpoint.lock("order:42").locks().get(0).queue().size() == 1);
            CompletableFuture<Boolean> second = waitFor(invoicing.obtain("order:42"), Duration.ofSeconds(10));
            awaitUntil(() -> endpoint.lock("order:42").locks().get(0).queue().stream()
                    .filter(waiter -> waiter.process() != null).count() == 2);

            LockInfoDescriptor info = endpoint.lock("order:42").locks().get(0);

            assertThat(info.held()).isTrue();
            assertThat(info.fencingToken()).isEqualTo(pay.fencingToken());
            assertThat(info.waiting()).isEqualTo(2);
            assertThat(info.queue()).extracting(Waiter::instance)
                    .containsExactly(shipping.identity().instance(), invoicing.identity().instance());
            assertThat(info.queue()).extracting(waiter -> waiter.process().application())
                    .containsExactly("shipping", "invoicing");
            held.remove(pay);
            pay.unlock();
            assertThat(first.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(second.get(10, TimeUnit.SECONDS)).isTrue();
            assertThat(endpoint.lock("order:42").locks().get(0).queue()).isEmpty();
        } finally {
            shipping.close();
            invoicing.close();
        }
    }



    private FencedLock hold(LockRegistry registry, String name, Lease lease, String label) {
        FencedLock lock = registry.obtain(name, lease, label);
        lock.lock();
        held.add(lock);
        return lock;
    }
}
