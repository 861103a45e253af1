package dev.distlock.core;

import java.util.concurrent.locks.ReadWriteLock;

/**
 * A read-write lock across processes: many readers or one writer per name, across every process that shares the
 * backend. Each side is a {@link FencedLock} with the lock's guarantees: every hold (a read or a write) has a lease,
 * renewed by the watchdog, is lost at its own local deadline and reported, carries its own fencing token (strictly
 * larger than every earlier one of the name, whether a read or a write), and a holder that dies blocks the name for
 * at most its lease.
 *
 * <pre>{@code
 * FencedReadWriteLock prices = registry.readWriteLock("prices");
 * FencedLock read = prices.readLock();
 * if (read.tryLock(Duration.ofSeconds(2))) {
 *     try {
 *         return catalogue.price(sku);
 *     } finally {
 *         read.unlock();
 *     }
 * }
 * }</pre>
 *
 * <p>Callers are served in arrival order, across processes: a reader waits behind a writer queued before it, so a
 * stream of readers never starves a writer, and the readers queued in a row behind a writer are let in together when
 * it releases. Readers of one name do not queue behind each other, in one process or across several.
 *
 * <p>Re-entrant per thread, as {@link java.util.concurrent.locks.ReentrantReadWriteLock}: the thread holding the
 * read lock may take it again (a count), the thread holding the write lock may take it again and may take the read
 * lock too (counted inside its write hold, with the write's fencing token). A thread that unlocks the write lock while
 * it still reads inside it <em>downgrades</em>: its hold becomes a read hold, with the same fencing token, and the
 * readers queued at the head are let in, never a writer in between (one more round trip; a delay given to
 * {@code unlockAfter} does not apply). A thread holding only the read lock that asks for the write lock gets an
 * {@link IllegalStateException} at once: the upgrade would wait for its own read hold. Holds taken with
 * {@code tryLockAsync} belong to no thread and are not re-entrant.
 *
 * <p>A read-write lock is a counted claim on its name, as a semaphore's permits are: a registry whose backend offers
 * no semaphores offers no read-write locks. A name is a lock, a semaphore or a read-write lock while it is in use,
 * not two of them.
 *
 * @since 0.1.0
 */
public interface FencedReadWriteLock extends ReadWriteLock {

    /** The name this read-write lock was obtained by. */
    String name();

    /** The read side: shared with other readers, never with a writer. */
    @Override
    FencedLock readLock();

    /** The write side: held by one caller, with no reader beside it. */
    @Override
    FencedLock writeLock();
}
