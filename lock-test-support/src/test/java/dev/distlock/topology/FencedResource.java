package dev.distlock.topology;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * What a lock protects, checking what a careful resource checks: nobody else inside, and no write with a
 * fencing token older than one already seen. It counts what callers saw: timeouts, backend errors, losses.
 */
final class FencedResource {

    private final AtomicInteger inside = new AtomicInteger();
    private final AtomicInteger maxInside = new AtomicInteger();
    private final AtomicLong highestFence = new AtomicLong();
    private final AtomicInteger staleWrites = new AtomicInteger();
    private final AtomicInteger writes = new AtomicInteger();
    private final AtomicInteger timeouts = new AtomicInteger();
    final List<Throwable> callerErrors = new CopyOnWriteArrayList<>();

    /** Takes the lock (waiting up to {@code wait}), writes once, releases; records whatever the caller saw. */
    void use(FencedLock lock, Duration wait) {
        try {
            if (!lock.tryLock(wait)) {
                timeouts.incrementAndGet();
                return;
            }
        } catch (LockBackendException failure) {
            callerErrors.add(failure);
            return;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            maxInside.accumulateAndGet(inside.incrementAndGet(), Math::max);
            long fence = lock.fencingToken();
            if (highestFence.getAndAccumulate(fence, Math::max) > fence) {
                staleWrites.incrementAndGet();
            }
            writes.incrementAndGet();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
            inside.decrementAndGet();
        } finally {
            try {
                lock.unlock();
            } catch (LockBackendException | LockLostException failure) {
                callerErrors.add(failure);
            }
        }
    }

    int maxInside() {
        return maxInside.get();
    }

    int staleWrites() {
        return staleWrites.get();
    }

    int writes() {
        return writes.get();
    }

    int timeouts() {
        return timeouts.get();
    }
}
