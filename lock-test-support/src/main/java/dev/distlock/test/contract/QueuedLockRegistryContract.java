package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.InvalidLockNameException;
import dev.distlock.core.Lease;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.LockTimeoutException;
import dev.distlock.core.support.StoreLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every registry whose waiters queue in the backend must do besides {@link LockRegistryContract} and
 * {@link SemaphoreContract}: the
 * lock passes in arrival order across processes, a release hands it to the first waiter (who confirms its
 * lease), waiters that give up or whose registry closes leave the queue, and inspection counts the waiters.
 * The Redis and in-memory registries pass it; a Redlock registry, whose waiters poll, does not queue.
 */
public abstract class QueuedLockRegistryContract extends SemaphoreContract {

    @Test
    void waitersOfSeveralProcessesGetTheLockInTheOrderTheyQueued() throws Exception {
        LockRegistry backend = registry();
        FencedLock holder = backend.obtain("queue");
        holder.lock();
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<Long> fences = Collections.synchronizedList(new ArrayList<>(List.of(holder.fencingToken())));
        List<Background<Boolean>> waiters = new ArrayList<>();
        for (String name : List.of("first", "second", "third")) {
            FencedLock lock = registry().obtain("queue");
            waiters.add(new Background<>(() -> {
                if (!lock.tryLock(PATIENCE.multipliedBy(2))) {
                    return false;
                }
                order.add(name);
                fences.add(lock.fencingToken());
                lock.unlock();
                return true;
            }));
            long queued = waiters.size();
            awaitUntil(() -> waitersQueued(backend, "queue") == queued);
        }

        holder.unlock();

        for (Background<Boolean> waiter : waiters) {
            assertThat(waiter.get()).isTrue();
        }
        assertThat(order).containsExactly("first", "second", "third");
        assertThat(fences).isSorted().doesNotHaveDuplicates();
        assertThat(holder.isLocked()).isFalse();
    }

    @Test
    void aWaiterThatGivesUpLeavesTheQueueSoTheLockIsNotHandedToIt() throws Exception {
        LockRegistry backend = registry();
        FencedLock holder = backend.obtain("quit");
        FencedLock quitter = registry().obtain("quit");
        holder.lock();

        assertThat(inOtherThread(() -> quitter.tryLock(Duration.ofMillis(300)))).isFalse();
        assertThat(waitersQueued(backend, "quit")).isZero();
        holder.unlock();

        assertThat(holder.isLocked()).isFalse();
    }

    @Test
    void busyProcessesTakeTurns() throws Exception {
        int count = 4;
        int total = 200;
        LockRegistry backend = registry();
        FencedLock starter = backend.obtain("turns");
        starter.lock();
        AtomicInteger taken = new AtomicInteger();
        List<Background<Integer>> processes = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            FencedLock lock = registry().obtain("turns");
            processes.add(new Background<>(() -> {
                int mine = 0;
                while (true) {
                    lock.lock();
                    try {
                        if (taken.incrementAndGet() > total) {
                            return mine;
                        }
                        mine++;
                        // some work, so that a thread the machine is slow to run misses few turns
                        LockSupport.parkNanos(TimeUnit.MICROSECONDS.toNanos(500));
                    } finally {
                        lock.unlock();
                    }
                }
            }));
        }
        // everybody queued before the first turn
        awaitUntil(() -> waitersQueued(backend, "turns") == count);
        starter.unlock();
        List<Integer> perProcess = new ArrayList<>();
        for (Background<Integer> process : processes) {
            perProcess.add(process.get());
        }

        assertThat(perProcess.stream().mapToInt(Integer::intValue).sum()).isEqualTo(total);
        // a releasing process that took the lock straight back would starve the others
        assertThat(Collections.min(perProcess)).as("acquisitions per process %s", perProcess)
                .isGreaterThanOrEqualTo(Collections.max(perProcess) / 3);
    }

    @Test
    void inspectTellsAnyProcessWhoHoldsALockSinceWhenAndWhoWaits() throws Exception {
        LockRegistry backend = registry();
        FencedLock holder = registry().obtain("inspected", Lease.fixed(Duration.ofSeconds(30)));
        LockRegistry operator = registry();
        assertThat(operator.inspect("inspected")).satisfies(free -> {
            assertThat(free.held()).isFalse();
            assertThat(free.holder()).isNull();
            assertThat(free.waiting()).isZero();
            assertThat(free.queue()).isEmpty();
        });
        holder.lock();
        LockRegistry waiterRegistry = registry();
        FencedLock waiter = waiterRegistry.obtain("inspected");
        Background<Boolean> waiting = new Background<>(() -> {
            boolean acquired = waiter.tryLock(PATIENCE);
            if (acquired) {
                waiter.unlock();
            }
            return acquired;
        });
        awaitUntil(() -> waitersQueued(backend, "inspected") == 1);

        // the holder's registry announces itself in the background when it first holds a lock, the waiter's when it
        // first waits
        awaitUntil(() -> {
            LockInfo now = operator.inspect("inspected");
            return now.holder() != null && now.queue().size() == 1 && now.queue().get(0).process() != null;
        });
        LockInfo info = operator.inspect("inspected");

        assertThat(info.name()).isEqualTo("inspected");
        assertThat(info.held()).isTrue();
        assertThat(info.fencingToken()).isEqualTo(holder.fencingToken());
        assertThat(info.heldSince()).isBetween(java.time.Instant.now().minus(Duration.ofMinutes(1)),
                java.time.Instant.now().plus(Duration.ofMinutes(1)));
        assertThat(info.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofSeconds(30));
        assertThat(info.waiting()).isOne();
        assertThat(info.holder().pid()).isEqualTo(ProcessHandle.current().pid());
        assertThat(info.holder().host()).isNotBlank();
        assertThat(info.holder().instance()).isNotBlank();
        assertThat(info.queue()).singleElement().satisfies(queued -> {
            assertThat(queued.instance()).isNotEqualTo(info.holder().instance());
            assertThat(queued.process().instance()).isEqualTo(queued.instance());
            assertThat(queued.process().pid()).isEqualTo(ProcessHandle.current().pid());
            if (waiterRegistry instanceof StoreLockRegistry named) {
                assertThat(queued.process()).isEqualTo(named.identity());
            }
        });
        holder.unlock();
        assertThat(waiting.get()).isTrue();
        LockInfo served = operator.inspect("inspected");
        assertThat(served.held()).isFalse();
        assertThat(served.waiting()).isZero();
        assertThat(served.queue()).isEmpty();
    }

    @Test
    void aHandOffIsConfirmedWithTheNewOwnersFullLease() throws Exception {
        LockRegistry backend = registry();
        FencedLock holder = backend.obtain("confirmed");
        FencedLock waiter = registry().obtain("confirmed", Lease.fixed(Duration.ofSeconds(60)));
        holder.lock();
        Background<Duration> waiting = new Background<>(() -> {
            if (!waiter.tryLock(PATIENCE)) {
                return Duration.ZERO;
            }
            // a hand-off sets a short claim lease, which the new owner extends at once to its own
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            Duration left = waiter.remainingLease();
            while (left.compareTo(Duration.ofSeconds(30)) < 0 && System.nanoTime() < deadline) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
                left = waiter.remainingLease();
            }
            waiter.unlock();
            return left;
        });
        awaitUntil(() -> waitersQueued(backend, "confirmed") == 1);

        holder.unlock();

        assertThat(waiting.get()).isGreaterThan(Duration.ofSeconds(30));
    }

    @Test
    void closingARegistryWithdrawsTheCallsWaitingInIt() throws Exception {
        LockRegistry backend = registry();
        FencedLock holder = backend.obtain("closing");
        holder.lock();
        LockRegistry closing = registry();
        Background<Boolean> waiting = new Background<>(() -> {
            closing.obtain("closing").lock();
            return true;
        });
        awaitUntil(() -> waitersQueued(backend, "closing") == 1);

        ((AutoCloseable) closing).close();

        assertThatThrownBy(waiting::get).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("'closing'").hasMessageContaining("closed");
        assertThat(waitersQueued(backend, "closing")).isZero();
        holder.unlock();
        assertThat(holder.isLocked()).as("nothing was handed to the closed registry").isFalse();
    }
}
