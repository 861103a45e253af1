package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.StoreCapabilities;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * A store that offers nothing beyond its owner-checked operations (no queue, notices, reads or announcements), as
 * Redlock offers no queue: its waiters never queue and poll, a busy answer leaves their token nothing to give up, and
 * what needs a capability the store lacks says so.
 */
class StoreWithoutQueueTest {

    private final InMemoryLockStore memory = new InMemoryLockStore();
    private final BareStore store = new BareStore(memory);
    private final EngineFixtures.TestRegistry holder = EngineFixtures.registry(store,
            EngineFixtures.settings().maxPollInterval(Duration.ofMillis(20)));
    private final EngineFixtures.TestRegistry waiter = EngineFixtures.registry(store,
            EngineFixtures.settings().maxPollInterval(Duration.ofMillis(20)));

    @AfterEach
    void close() {
        waiter.close();
        holder.close();
    }

    @Test
    void itsWaitersNeverQueueAndABusyAnswerLeavesNothingToGiveUp() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();

        assertThat(waiter.obtain("n").tryLock(Duration.ofMillis(150))).isFalse();

        assertThat(store.queueFlags).as("tries sent").hasSizeGreaterThan(1).containsOnly(false);
        assertThat(memory.waitersQueued("n")).isZero();
        assertThat(store.abandons).as("a try that did not queue and found the lock busy holds nothing").isEmpty();
        held.unlock();
    }

    @Test
    void aWaiterPollsUntilTheLockIsFree() throws Exception {
        FencedLock held = holder.obtain("n");
        held.lock();
        var waiting = waiter.obtain("n").tryLockAsync(Duration.ofSeconds(10)).toCompletableFuture();
        int triesWhileHeld = store.queueFlags.size();

        held.unlock();

        DetachedLock taken = waiting.get(10, TimeUnit.SECONDS);
        assertThat(store.queueFlags.size()).as("asked again after the release").isGreaterThan(triesWhileHeld);
        taken.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void whatNeedsAMissingCapabilitySaysSo() {
        assertThatThrownBy(() -> waiter.obtain("n").isLocked()).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("BareStore");
        assertThatThrownBy(() -> waiter.forceRelease("n", 1)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("BareStore");
    }

    /** The in-memory store's owner-checked operations, nothing more; records each try's queue flag. */
    private static final class BareStore implements LockStore {

        private final InMemoryLockStore memory;
        final List<Boolean> queueFlags = new CopyOnWriteArrayList<>();
        final List<String> abandons = new CopyOnWriteArrayList<>();

        BareStore(InMemoryLockStore memory) {
            this.memory = memory;
        }

        @Override
        public AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean queue,
                long waiterTimeoutMillis) {
            queueFlags.add(queue);
            return memory.tryAcquire(name, token, leaseMillis, queue, waiterTimeoutMillis);
        }

        @Override
        public boolean release(String name, String token, long fencingToken) {
            return memory.release(name, token, fencingToken);
        }

        @Override
        public void abandon(String name, String token) {
            abandons.add(token);
            memory.abandon(name, token);
        }

        @Override
        public boolean extend(String name, String token, long leaseMillis) {
            return memory.extend(name, token, leaseMillis);
        }

        @Override
        public boolean renew(String name, String token, long leaseMillis) {
            return memory.renew(name, token, leaseMillis);
        }

        @Override
        public long remainingLeaseMillis(String name, String token) {
            return memory.remainingLeaseMillis(name, token);
        }

        @Override
        public StoreCapabilities capabilities() {
            return StoreCapabilities.builder().build();
        }

        @Override
        public void close() {
        }
    }
}
