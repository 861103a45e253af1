package dev.distlock.shedlock;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.LockProvider;
import net.javacrumbs.shedlock.core.SimpleLock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** ShedLock's provider contract, through ShedLock's own API, on distlock (in memory). */
class DistlockLockProviderTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private final InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build();
    private final LockProvider provider = new DistlockLockProvider(registry);

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void aHeldLockIsRefusedUntilItIsReleasedEvenToTheSameThread() {
        SimpleLock first = lock("job", Duration.ofSeconds(30), Duration.ZERO).orElseThrow();

        assertThat(lock("job", Duration.ofSeconds(30), Duration.ZERO)).isEmpty();
        first.unlock();

        Optional<SimpleLock> again = lock("job", Duration.ofSeconds(30), Duration.ZERO);
        assertThat(again).isPresent();
        again.get().unlock();
    }

    @Test
    void lockAtLeastForKeepsTheLockAfterAnEarlyUnlock() throws Exception {
        lock("short-job", Duration.ofSeconds(30), Duration.ofMillis(500)).orElseThrow().unlock();

        assertThat(lock("short-job", Duration.ofSeconds(30), Duration.ZERO)).as("still taken").isEmpty();
        awaitUntil(() -> lock("short-job", Duration.ofSeconds(30), Duration.ZERO).isPresent());
    }

    @Test
    void lockAtMostForEndsTheLockOfAJobThatNeverUnlocks() throws Exception {
        lock("stuck-job", Duration.ofMillis(300), Duration.ZERO).orElseThrow();

        awaitUntil(() -> lock("stuck-job", Duration.ofSeconds(30), Duration.ZERO).isPresent());
    }

    @Test
    void extendGivesANewLockAtMostForFromNow() throws Exception {
        SimpleLock lock = lock("long-job", Duration.ofMillis(300), Duration.ZERO).orElseThrow();

        SimpleLock extended = lock.extend(Duration.ofSeconds(30), Duration.ZERO).orElseThrow();
        // past the first lockAtMostFor, the extended lock still holds
        TimeUnit.MILLISECONDS.sleep(600);
        assertThat(lock("long-job", Duration.ofSeconds(30), Duration.ZERO)).isEmpty();
        extended.unlock();
        assertThat(lock("long-job", Duration.ofSeconds(30), Duration.ZERO)).isPresent();
    }

    @Test
    void extendingALostLockGivesNothing() throws Exception {
        SimpleLock lock = lock("lost-job", Duration.ofMillis(100), Duration.ZERO).orElseThrow();
        awaitUntil(() -> !registry.obtain("lost-job").isLocked());

        assertThat(lock.extend(Duration.ofSeconds(30), Duration.ZERO)).isEmpty();
    }

    private Optional<SimpleLock> lock(String name, Duration atMost, Duration atLeast) {
        return provider.lock(new LockConfiguration(Instant.now(), name, atMost, atLeast));
    }

    private static void awaitUntil(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + BOUND.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("within " + BOUND).isNegative();
            TimeUnit.MILLISECONDS.sleep(10);
        }
    }
}
