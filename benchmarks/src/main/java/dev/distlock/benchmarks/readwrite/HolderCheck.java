package dev.distlock.benchmarks.readwrite;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The harness's own count of who is inside one read-write lock, shared by every client of a measurement (they run in
 * one JVM, whatever connection each has): readers and writers inside now, the most readers ever inside at once, and
 * the holds that found a writer beside another holder, which a correct lock never lets happen.
 *
 * <p>Each hold looks on entering (after it was granted) and again on leaving (before it gives the lock back), so
 * that two holds that overlap are seen whichever entered first. A hold counts at most one overlap.
 */
final class HolderCheck {

    private final AtomicInteger readers = new AtomicInteger();
    private final AtomicInteger writers = new AtomicInteger();
    private final AtomicInteger mostReaders = new AtomicInteger();
    private final AtomicInteger mostWriters = new AtomicInteger();
    private final AtomicLong writerOverlaps = new AtomicLong();

    /** A granted hold enters; returns whether it already found a writer beside another holder. */
    boolean enter(boolean write) {
        if (write) {
            int now = writers.incrementAndGet();
            mostWriters.accumulateAndGet(now, Math::max);
            return now > 1 || readers.get() > 0;
        }
        int now = readers.incrementAndGet();
        mostReaders.accumulateAndGet(now, Math::max);
        return writers.get() > 0;
    }

    /** The hold leaves; {@code overlapped} is what {@link #enter} said. */
    void leave(boolean write, boolean overlapped) {
        boolean overlaps = overlapped || (write ? writers.get() > 1 || readers.get() > 0 : writers.get() > 0);
        if (overlaps) {
            writerOverlaps.incrementAndGet();
        }
        (write ? writers : readers).decrementAndGet();
    }

    /** Holds that had a writer beside another holder: 0 for a correct lock. */
    long writerOverlaps() {
        return writerOverlaps.get();
    }

    int mostReaders() {
        return mostReaders.get();
    }

    /** The most writers inside at once: 1 for a correct lock (0 if none wrote). */
    int mostWriters() {
        return mostWriters.get();
    }
}
