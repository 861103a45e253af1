package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.FencedReadWriteLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockInfo;
import dev.distlock.core.LockLostException;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * What every registry whose backend queues waiters must do with read-write locks ({@link LockRegistry#readWriteLock}),
 * besides {@link LockRegistryContract}: many readers or one writer across processes, each hold with its own growing
 * fencing token; a queued writer not overtaken by later readers, and the readers queued behind it let in together;
 * re-entry per thread, a write unlocked while reading inside it downgraded to a read (letting the queued readers in,
 * no writer), and an upgrade refused at once; holds renewed, lost and given back like a lock's; inspect counting the
 * holds.
 */
public abstract class ReadWriteLockContract extends LockRegistryContract {

    private static final Duration NO_WAIT = Duration.ZERO;

    /** How many acquisitions wait in the backend's queue for {@code name} (a lock, semaphore or read-write lock). */
    protected abstract long waitersQueued(LockRegistry registry, String name) throws Exception;

    private static DetachedLock taken(CompletableFuture<DetachedLock> taking) throws Exception {
        return taking.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    private static CompletableFuture<DetachedLock> tryAsync(FencedLock side, Duration wait) {
        return side.tryLockAsync(wait).toCompletableFuture();
    }

    @Test
    void readersShareANameAcrossProcessesAndAWriterHasItAlone() throws Exception {
        FencedReadWriteLock here = registry().readWriteLock("rw-share");
        FencedReadWriteLock there = registry().readWriteLock("rw-share");

        assertThat(here.readLock().tryLock(NO_WAIT)).isTrue();
        DetachedLock alsoHere = taken(tryAsync(here.readLock(), NO_WAIT));
        DetachedLock readerThere = taken(tryAsync(there.readLock(), NO_WAIT));
        assertThat(alsoHere).as("a second reader of the same process").isNotNull();
        assertThat(readerThere).as("a reader of another process").isNotNull();
        assertThat(List.of(here.readLock().fencingToken(), alsoHere.fencingToken(), readerThere.fencingToken()))
                .isSorted().doesNotHaveDuplicates();
        assertThat(taken(tryAsync(there.writeLock(), NO_WAIT))).as("a writer beside readers").isNull();
        assertThat(there.writeLock().isLocked()).as("read by anyone").isTrue();

        here.readLock().unlock();
        alsoHere.unlock();
        readerThere.unlock();
        assertThat(there.writeLock().tryLock(NO_WAIT)).isTrue();
        assertThat(there.writeLock().fencingToken()).isGreaterThan(readerThere.fencingToken());
        assertThat(taken(tryAsync(here.readLock(), NO_WAIT))).as("a reader beside the writer").isNull();
        assertThat(taken(tryAsync(here.writeLock(), NO_WAIT))).as("a second writer").isNull();
        there.writeLock().unlock();
        assertThat(taken(tryAsync(here.writeLock(), NO_WAIT))).as("free again").isNotNull()
                .satisfies(DetachedLock::unlock);
    }

    @Test
    void aQueuedWriterIsNotOvertakenByLaterReadersAndTheReadersBehindItEnterTogether() throws Exception {
        LockRegistry waiting = registry();
        FencedReadWriteLock here = registry().readWriteLock("rw-order");
        FencedReadWriteLock queued = waiting.readWriteLock("rw-order");
        DetachedLock reader = taken(tryAsync(here.readLock(), NO_WAIT));
        CompletableFuture<DetachedLock> writer = tryAsync(queued.writeLock(), PATIENCE);
        awaitUntil(() -> waitersQueued(waiting, "rw-order") == 1);

        assertThat(taken(tryAsync(here.readLock(), NO_WAIT))).as("a newcomer reader behind the queued writer")
                .isNull();
        CompletableFuture<DetachedLock> firstBehind = tryAsync(queued.readLock(), PATIENCE);
        awaitUntil(() -> waitersQueued(waiting, "rw-order") == 2);
        CompletableFuture<DetachedLock> secondBehind = tryAsync(queued.readLock(), PATIENCE);
        awaitUntil(() -> waitersQueued(waiting, "rw-order") == 3);

        reader.unlock();
        DetachedLock written = taken(writer);
        assertThat(written.fencingToken()).isGreaterThan(reader.fencingToken());
        assertThat(firstBehind).as("readers wait for the writer").isNotDone();
        written.unlock();
        DetachedLock first = taken(firstBehind);
        DetachedLock second = taken(secondBehind);
        assertThat(List.of(written.fencingToken(), first.fencingToken(), second.fencingToken())).isSorted()
                .doesNotHaveDuplicates();
        first.unlock();
        second.unlock();
    }

    @Test
    void aThreadReentersItsHoldsDowngradesAWriteByReadingInsideItAndCannotUpgrade() throws Exception {
        LockRegistry registry = registry();
        FencedReadWriteLock lock = registry.readWriteLock("rw-reenter");
        FencedLock read = lock.readLock();
        FencedLock write = lock.writeLock();
        FencedReadWriteLock other = registry().readWriteLock("rw-reenter");

        read.lock();
        assertThat(read.tryLock(NO_WAIT)).isTrue();
        assertThat(read.holdCount()).isEqualTo(2);
        assertThatThrownBy(() -> write.tryLock(PATIENCE)).as("refused at once, not after the wait")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot be upgraded");
        assertThatThrownBy(() -> registry.obtain("rw-reenter").tryLock()).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("read-write lock");
        assertThatThrownBy(write::unlock).isInstanceOf(IllegalMonitorStateException.class)
                .hasMessageContaining("write lock");
        read.unlock();
        read.unlock();
        assertThatThrownBy(read::unlock).isInstanceOf(IllegalMonitorStateException.class);

        write.lock();
        long writeToken = write.fencingToken();
        CompletableFuture<DetachedLock> queuedReader = tryAsync(other.readLock(), PATIENCE);
        awaitUntil(() -> waitersQueued(registry, "rw-reenter") == 1);
        assertThat(read.tryLock(NO_WAIT)).as("a read inside the write").isTrue();
        assertThat(read.fencingToken()).as("one hold").isEqualTo(writeToken);
        assertThat(queuedReader).as("no reader beside the writer").isNotDone();

        write.unlock();
        assertThat(write.isHeldByCurrentThread()).isFalse();
        assertThat(read.isHeldByCurrentThread()).as("downgraded: still reading").isTrue();
        assertThat(read.fencingToken()).isEqualTo(writeToken);
        DetachedLock besideIt = taken(queuedReader);
        assertThat(besideIt.fencingToken()).as("the queued reader, let in by the downgrade").isGreaterThan(writeToken);
        assertThat(taken(tryAsync(other.writeLock(), NO_WAIT))).as("no writer beside the readers").isNull();
        assertThatThrownBy(() -> write.tryLock(NO_WAIT)).as("a read hold now")
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("cannot be upgraded");
        read.unlock();
        besideIt.unlock();
        DetachedLock next = taken(tryAsync(other.writeLock(), NO_WAIT));
        assertThat(next).as("free after the last read").isNotNull();
        assertThat(next.fencingToken()).isGreaterThan(besideIt.fencingToken());
        next.unlock();
    }

    @Test
    void readAndWriteHoldsAreRenewedFoundLostAndGivenBackByAClosedRegistry() throws Exception {
        LockRegistry registry = registry();
        FencedReadWriteLock renewed = registry.readWriteLock("rw-lease", Lease.renewed(Lease.MIN_RENEWED), null);
        FencedReadWriteLock other = registry().readWriteLock("rw-lease");
        assertThat(renewed.writeLock().tryLock(NO_WAIT)).isTrue();
        assertThat(other.readLock().tryLockAsync(Lease.MIN_RENEWED.multipliedBy(3)).toCompletableFuture()
                .get(PATIENCE.toSeconds(), TimeUnit.SECONDS)).as("the writer, renewed past its lease").isNull();
        renewed.writeLock().verifyHeld();

        deleteFromOutside(registry, "rw-lease");
        assertThatThrownBy(renewed.writeLock()::verifyHeld).isInstanceOf(LockLostException.class);
        assertThatThrownBy(renewed.writeLock()::unlock).isInstanceOf(LockLostException.class);

        LockRegistry closing = registry();
        FencedLock closedReader = closing.readWriteLock("rw-lease").readLock();
        assertThat(closedReader.tryLock(NO_WAIT)).isTrue();
        ((AutoCloseable) closing).close();
        assertThat(closedReader.isHeldByCurrentThread()).isFalse();
        assertThat(other.writeLock().tryLock(PATIENCE)).as("given back by the close").isTrue();
        other.writeLock().unlock();
    }

    @Test
    void inspectCountsTheReadersAndDescribesTheNewestHoldAndTheQueue() throws Exception {
        LockRegistry waiting = registry();
        FencedReadWriteLock here = registry().readWriteLock("rw-inspect");
        DetachedLock first = taken(tryAsync(here.readLock(), NO_WAIT));
        DetachedLock second = taken(tryAsync(here.readLock(), NO_WAIT));
        CompletableFuture<DetachedLock> writer = tryAsync(waiting.readWriteLock("rw-inspect").writeLock(), PATIENCE);
        awaitUntil(() -> waitersQueued(waiting, "rw-inspect") == 1);

        LockInfo read = registry().inspect("rw-inspect");
        assertThat(read.held()).isTrue();
        assertThat(read.holds()).as("two readers").isEqualTo(2);
        assertThat(read.permitsInUse()).as("one permit each").isEqualTo(2);
        assertThat(read.permits()).as("a read-write lock's").isEqualTo(1 << 20);
        assertThat(read.fencingToken()).as("the newest hold").isEqualTo(second.fencingToken());
        assertThat(read.remainingLease()).isPositive();
        assertThat(read.waiting()).isEqualTo(1);
        first.unlock();
        second.unlock();
        DetachedLock written = taken(writer);
        assertThat(registry().inspect("rw-inspect")).satisfies(info -> {
            assertThat(info.holds()).as("the writer alone").isEqualTo(1);
            assertThat(info.permitsInUse()).as("all of them").isEqualTo(info.permits());
            assertThat(info.fencingToken()).isEqualTo(written.fencingToken());
            assertThat(info.waiting()).isZero();
        });
        written.unlock();
        assertThat(registry().inspect("rw-inspect")).satisfies(info -> {
            assertThat(info.held()).isFalse();
            assertThat(info.holds()).isZero();
        });
    }

    @Test
    void aNameIsAReadWriteLockOrALockWhileInUse() throws Exception {
        FencedLock read = registry().readWriteLock("rw-or-lock").readLock();
        assertThat(read.tryLock(NO_WAIT)).isTrue();
        assertThatThrownBy(() -> registry().obtain("rw-or-lock").tryLock()).isInstanceOf(LockBackendException.class);
        read.unlock();
    }
}
