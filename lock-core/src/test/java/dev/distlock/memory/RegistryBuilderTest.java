package dev.distlock.memory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Settings shared by every registry builder, and what the registry makes of them. */
class RegistryBuilderTest {

    @Test
    void settingsThatCannotWorkAreRejectedWithTheirName() {
        assertThatThrownBy(() -> InMemoryLockRegistry.builder().defaultLease(Duration.ofMillis(2)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("defaultLease must be between 300ms and 365 days");
        assertThatThrownBy(() -> InMemoryLockRegistry.builder().maxPollInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("maxPollInterval");
    }

    @Test
    void theDefaultLeaseIsThirtySecondsUnlessSet() {
        try (InMemoryLockRegistry defaults = InMemoryLockRegistry.builder().build();
                InMemoryLockRegistry custom = InMemoryLockRegistry.builder().defaultLease(Duration.ofSeconds(9)).build()) {
            assertThat(defaults.getDefaultLease()).isEqualTo(Duration.ofSeconds(30));
            assertThat(custom.getDefaultLease()).isEqualTo(Duration.ofSeconds(9));
            FencedLock lock = custom.obtain("lease");
            lock.lock();
            assertThat(lock.remainingLease()).isLessThanOrEqualTo(Duration.ofSeconds(9)).isPositive();
            lock.unlock();
        }
    }

    @Test
    void aFailingListenerDoesNotBreakTheLockNorTheOtherListeners() {
        AtomicInteger heard = new AtomicInteger();
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder()
                .listener(new LockListener() {
                    @Override
                    public void onAcquired(LockEvent event) {
                        throw new IllegalStateException("listener bug");
                    }
                })
                .listener(new LockListener() {
                    @Override
                    public void onAcquired(LockEvent event) {
                        heard.incrementAndGet();
                    }
                })
                .build()) {
            FencedLock lock = registry.obtain("listened");
            lock.lock();
            assertThat(lock.isHeldByCurrentThread()).isTrue();
            lock.unlock();
        }
        assertThat(heard).hasValue(1);
    }

    @Test
    void aTaskFailureAndAFailedReleaseAreBothReported() {
        try (InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build()) {
            assertThatThrownBy(() -> registry.executeLocked("both", Duration.ZERO, () -> {
                registry.store().delete("both");
                throw new IllegalStateException("task failed");
            })).hasMessage("task failed")
                    .satisfies(error -> assertThat(error.getSuppressed()).singleElement()
                            .isInstanceOf(dev.distlock.core.LockLostException.class));
        }
    }
}
