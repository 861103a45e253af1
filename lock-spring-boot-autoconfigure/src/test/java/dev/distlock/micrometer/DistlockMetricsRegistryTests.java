package dev.distlock.micrometer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockLostException;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The listener on a real lock engine: the events it gets are the ones the meters expect. */
class DistlockMetricsRegistryTests {

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final DistlockMetrics metrics = new DistlockMetrics(meters);

    private final InMemoryLockStore store = new InMemoryLockStore();

    private final InMemoryLockRegistry here = InMemoryLockRegistry.builder().store(store).listener(metrics).build();

    private final InMemoryLockRegistry elsewhere = InMemoryLockRegistry.builder().store(store).listener(metrics)
            .build();

    @AfterEach
    void close() {
        here.close();
        elsewhere.close();
    }

    @Test
    void acquisitionsTimeoutsReleasesAndLossesOfARegistryReachTheMeters() throws InterruptedException {
        FencedLock pay = here.obtain("order:1", Lease.renewed(), "pay");
        pay.lock();
        assertThat(active("pay")).isEqualTo(1);

        assertThat(elsewhere.obtain("order:1", Lease.renewed(), "pay").tryLock(Duration.ZERO)).isFalse();
        pay.unlock();

        FencedLock lost = here.obtain("order:2", Lease.renewed(), "pay");
        lost.lock();
        store.delete("order:2"); // someone else removed the key
        assertThatThrownBy(lost::unlock).isInstanceOf(LockLostException.class);

        assertThat(count("distlock.acquire", "acquired")).isEqualTo(2);
        assertThat(count("distlock.acquire", "timeout")).isEqualTo(1);
        assertThat(count("distlock.held", "released")).isEqualTo(1);
        assertThat(count("distlock.held", "lost")).isEqualTo(1);
        assertThat(meters.get("distlock.lost").tag("lock", "pay").counter().count()).isEqualTo(1);
        assertThat(active("pay")).isZero();
    }

    private long count(String timer, String outcome) {
        return meters.get(timer).tag("lock", "pay").tag("outcome", outcome).timer().count();
    }

    private int active(String label) {
        return meters.get(DistlockMetrics.HELD_ACTIVE).tag("lock", label).longTaskTimer().activeTasks();
    }
}
