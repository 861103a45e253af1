package dev.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ExecuteLockedTest {

    private final InMemoryLockRegistry registry = InMemoryLockRegistry.builder().build();

    @AfterEach
    void close() {
        registry.close();
    }

    @Test
    void anExpressionLambdaReturnsItsValueAndAStatementLambdaJustRuns() {
        AtomicInteger counter = new AtomicInteger();

        int value = registry.executeLocked("counter", Duration.ZERO, () -> counter.incrementAndGet());
        registry.executeLocked("counter", Duration.ZERO, () -> {
            counter.incrementAndGet();
        });

        assertThat(value).isEqualTo(1);
        assertThat(counter).hasValue(2);
        assertThat(registry.obtain("counter").isLocked()).isFalse();
    }

    @Test
    void severalNamesTakeAnExpressionLambdaForItsValueAndAStatementLambdaToJustRun() {
        AtomicInteger counter = new AtomicInteger();
        List<String> names = List.of("account:b", "account:a");

        int value = registry.executeLocked(names, Duration.ZERO, () -> {
            assertThat(registry.heldLocks()).extracting(HeldLock::name).containsExactlyInAnyOrder("account:a",
                    "account:b");
            return counter.incrementAndGet();
        });
        registry.executeLocked(names, Duration.ZERO, () -> {
            counter.incrementAndGet();
        });

        assertThat(value).isEqualTo(1);
        assertThat(counter).hasValue(2);
        assertThat(registry.heldLocks()).isEmpty();
    }

    @Test
    void aWaitTooLongForNanosecondsIsAWaitWithoutLimitForOneNameAndForSeveral() throws Exception {
        Duration endless = Duration.ofMillis(Long.MAX_VALUE);
        FencedLock one = registry.obtain("endless");
        FencedLock several = registry.obtainAll(List.of("endless:b", "endless:a"));

        assertThat(one.tryLock(endless)).isTrue();
        one.unlock();
        assertThat(several.tryLock(endless)).isTrue();
        several.unlock();
        DetachedLock held = several.tryLockAsync(endless).toCompletableFuture().get(5, TimeUnit.SECONDS);
        assertThat(held).isNotNull();
        held.unlock();
    }

    @Test
    void anInterruptedWaitBecomesLockInterruptedExceptionWithTheFlagSet() {
        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> registry.executeLocked("interrupted", Duration.ofSeconds(1), () -> 1))
                    .isInstanceOf(LockInterruptedException.class).hasMessageContaining("'interrupted'");
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aClosedRegistryRefusesToLock() {
        registry.close();
        assertThatThrownBy(() -> registry.obtain("late").lock()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'late'").hasMessageContaining("registry is closed");
    }

    @Test
    void extendSetsTheRemainingLeaseOfARenewedHold() {
        FencedLock lock = registry.obtain("extended", Lease.renewed(Duration.ofSeconds(3)));
        lock.lock();
        lock.extend(Duration.ofMinutes(5));
        assertThat(lock.remainingLease()).isGreaterThan(Duration.ofMinutes(4));
        lock.unlock();
    }
}
