package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.Lease;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class StoreLockRegistryTest {

    @Test
    void idleNamesLeaveNoStateBehind() {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            for (int i = 0; i < 10_000; i++) {
                FencedLock lock = registry.obtain("order:" + i);
                lock.lock();
                assertThat(lock.tryLock()).isTrue();
                lock.unlock();
                lock.unlock();
            }
            assertThat(((StoreLockRegistry) registry).namesInUse()).isZero();
            assertThat(registry.store().heldNames()).isEmpty();
        }
    }

    @Test
    void heldLocksListsTheHoldsOfThisRegistryWithTheirLeases() {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            FencedLock renewed = registry.obtain("renewed", Lease.renewed(), "Jobs.run");
            FencedLock fixed = registry.obtain("fixed", Lease.fixed(Duration.ofMinutes(5)));
            renewed.lock();
            fixed.lock();

            assertThat(registry.heldLocks()).extracting(HeldLock::name, HeldLock::label, HeldLock::renewed)
                    .containsExactlyInAnyOrder(tuple("renewed", "Jobs.run", true), tuple("fixed", null, false));
            assertThat(registry.heldLocks()).allSatisfy(held -> {
                assertThat(held.remainingLease()).isPositive();
                assertThat(held.fencingToken()).isPositive();
            });

            renewed.unlock();
            fixed.unlock();
            assertThat(registry.heldLocks()).isEmpty();
        }
    }
}
