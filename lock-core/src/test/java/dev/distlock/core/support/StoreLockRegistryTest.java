package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.memory.InMemoryLockRegistry;
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
            assertThat(((StoreLockRegistry) registry).trackedNames()).isZero();
            assertThat(registry.store().heldNames()).isEmpty();
        }
    }
}
