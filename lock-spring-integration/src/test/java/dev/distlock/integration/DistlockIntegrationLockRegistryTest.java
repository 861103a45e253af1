package dev.distlock.integration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.Lock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.integration.support.locks.LockRegistry;

/** Spring Integration's lock registry contract, as its users call it, on distlock (in memory). */
class DistlockIntegrationLockRegistryTest {

    private final InMemoryLockRegistry distlock = InMemoryLockRegistry.builder().build();
    private final LockRegistry<FencedLock> registry = new DistlockIntegrationLockRegistry(distlock,
            Duration.ofSeconds(30));

    @AfterEach
    void close() {
        distlock.close();
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

        FencedLock held = distlock.obtain("busy");
        CompletableFuture.runAsync(held::lock).get(30, TimeUnit.SECONDS);
        assertThatThrownBy(() -> registry.executeLocked("busy", Duration.ofMillis(50), () -> { }))
                .isInstanceOf(TimeoutException.class);
    }

    @Test
    void renewLockExtendsTheHoldOfTheCurrentThreadOnly() {
        FencedLock lock = (FencedLock) registry.obtain("renewed");
        lock.lock();
        ((DistlockIntegrationLockRegistry) registry).renewLock("renewed", Duration.ofMinutes(5));
        assertThat(lock.remainingLease()).isGreaterThan(Duration.ofMinutes(4));
        lock.unlock();

        assertThatThrownBy(() -> ((DistlockIntegrationLockRegistry) registry).renewLock("renewed"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("'renewed'");
    }

    @Test
    void aKeyThatIsNoStringIsRefusedAsSpringIntegrationRefusesIt() {
        assertThatThrownBy(() -> registry.obtain(42)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("java.lang.Integer");
    }
}
