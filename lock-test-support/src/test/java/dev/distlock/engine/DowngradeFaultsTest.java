package dev.distlock.engine;

import static dev.distlock.engine.Registries.PATIENCE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.LockLostException;
import dev.distlock.test.scripted.ScriptedLockStore.CommandTimeout;
import dev.distlock.test.scripted.ScriptedLockStore.Op;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A writer of a read-write lock that unlocks its write while it still reads inside it (a downgrade), when the store's
 * answer is lost, the command fails before it ran, or the hold is gone: the thread holds a read from then on whatever
 * the store answered (never a write again, so the upgrade is refused), nothing lets a writer in beside it, and a hold
 * the store no longer has is reported lost at the last unlock, never released as if held.
 */
class DowngradeFaultsTest extends ScriptedStoreTest {

    private FencedReadWriteLock lock;
    private FencedReadWriteLock other;

    @BeforeEach
    void writeAndReadInside() {
        lock = registries.process(events).readWriteLock("job");
        other = registries.process(new Events()).readWriteLock("job");
        lock.writeLock().lock();
        lock.readLock().lock();
    }

    @Test
    void aDowngradeWhoseReplyIsLostRanAndTheThreadOnlyReads() throws Exception {
        store.next(Op.KEEP_PERMITS, "job").loseReply(new CommandTimeout("no reply in time"));

        lock.writeLock().unlock();

        assertReadsOnly();
        DetachedLock reader = taken(other.readLock());
        assertThat(reader).as("the downgrade ran: a reader beside the thread").isNotNull();
        assertThat(taken(other.writeLock())).as("no writer").isNull();
        reader.unlock();
        lock.readLock().unlock();
        assertThat(store.backend().isLocked("job")).isFalse();
        assertThat(events.lost).isEmpty();
    }

    @Test
    void aDowngradeThatFailedBeforeItRanLeavesTheNameExclusiveUntilTheLastRead() throws Exception {
        store.next(Op.KEEP_PERMITS, "job").fail(new IllegalStateException("refused"));

        lock.writeLock().unlock();

        assertReadsOnly();
        assertThat(taken(other.readLock())).as("still the writer's claim in the store").isNull();
        lock.readLock().unlock();
        DetachedLock writer = taken(other.writeLock());
        assertThat(writer).as("free after the last read").isNotNull();
        writer.unlock();
        assertThat(events.lost).isEmpty();
    }

    @Test
    void aDowngradeThatFindsTheHoldGoneReportsItLostAtTheLastUnlock() {
        store.backend().delete("job");

        lock.writeLock().unlock();

        assertThat(lock.readLock().isHeldByCurrentThread()).isFalse();
        assertThatThrownBy(lock.readLock()::unlock).isInstanceOf(LockLostException.class);
        assertThat(events.lost).hasSize(1);
    }

    private void assertReadsOnly() {
        assertThat(lock.writeLock().isHeldByCurrentThread()).isFalse();
        assertThat(lock.readLock().isHeldByCurrentThread()).isTrue();
        assertThat(lock.readLock().holdCount()).isEqualTo(1);
        assertThatThrownBy(() -> lock.writeLock().tryLock(Duration.ZERO)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("cannot be upgraded");
    }

    private static DetachedLock taken(FencedLock side) throws Exception {
        return side.tryLockAsync(Duration.ZERO).toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }
}
