package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.HoldKind;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.memory.InMemoryLockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Listeners hear what each hold is of its name ({@link LockEvent#kind()}): a lock, permits, a read or a write, also
 * when the call fails, and a write downgraded to a read is released as the read it became.
 */
@BoundedTest
class HoldKindEventsTest {

    private final List<String> heard = new CopyOnWriteArrayList<>();
    private final InMemoryLockRegistry registry = InMemoryLockRegistry.builder().listener(new LockListener() {
        @Override
        public void onAcquired(LockEvent event) {
            heard.add("acquired " + event.lockName() + " " + event.kind());
        }

        @Override
        public void onAcquireFailed(LockEvent event) {
            heard.add("missed " + event.lockName() + " " + event.kind());
        }

        @Override
        public void onReleased(LockEvent event) {
            heard.add("released " + event.lockName() + " " + event.kind());
        }
    }).build();

    private final InMemoryLockRegistry other = InMemoryLockRegistry.builder().store(registry.store()).build();

    @AfterEach
    void close() {
        other.close();
        registry.close();
    }

    @Test
    void eachEventSaysWhatTheHoldIsOfItsName() throws Exception {
        FencedLock lock = registry.obtain("job");
        lock.lock();
        lock.unlock();
        var permit = registry.semaphore("calls", 1).tryAcquire(Duration.ZERO);
        assertThat(registry.semaphore("calls", 1).tryAcquire(Duration.ZERO)).isNull();
        permit.unlock();
        FencedReadWriteLock prices = registry.readWriteLock("prices");
        prices.writeLock().lock();
        prices.readLock().lock();
        prices.writeLock().unlock();
        FencedLock otherWriter = other.readWriteLock("prices").writeLock();
        assertThat(otherWriter.tryLock()).as("a read now, still no writer beside it").isFalse();
        prices.readLock().unlock();

        assertThat(heard).containsExactly("acquired job LOCK", "released job LOCK", "acquired calls PERMITS",
                "missed calls PERMITS", "released calls PERMITS", "acquired prices WRITE", "released prices READ");
        assertThat(otherWriter.tryLock()).isTrue();
        otherWriter.unlock();
    }
}
