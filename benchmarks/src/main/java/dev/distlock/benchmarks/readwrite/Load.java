package dev.distlock.benchmarks.readwrite;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntFunction;

/**
 * Clients on one lock, a thread each, acquiring, holding briefly and releasing as fast as they can for a while, as
 * the permits comparison's clients do; both comparisons of this package share it, so that their figures differ only
 * by what the clients take.
 */
final class Load {

    /** How long every hold lasts: the permits comparison's, parked rather than spun. */
    static final Duration HOLD = Duration.ofNanos(100_000);

    private Load() {
    }

    /**
     * Every client acquires, holds and releases until {@code length} passed.
     *
     * @param writes for the client of each index, whether its next acquisition writes; called on its own thread
     */
    static Counts run(List<ReadWriteClients.Client> clients, IntFunction<BooleanSupplier> writes, Duration length)
            throws InterruptedException {
        Counts counts = new Counts();
        CountDownLatch done = new CountDownLatch(clients.size());
        long start = System.nanoTime();
        long end = start + length.toNanos();
        for (int i = 0; i < clients.size(); i++) {
            ReadWriteClients.Client client = clients.get(i);
            int index = i;
            Thread thread = new Thread(() -> {
                try {
                    BooleanSupplier nextWrites = writes.apply(index);
                    while (System.nanoTime() < end) {
                        takeHoldGiveBack(client, nextWrites.getAsBoolean(), counts);
                    }
                } finally {
                    done.countDown();
                }
            }, "readwrite-client-" + i);
            thread.setDaemon(true);
            thread.start();
        }
        if (!done.await(length.toSeconds() + 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the read-write clients did not stop within a minute after the "
                    + "measurement");
        }
        counts.nanos = System.nanoTime() - start;
        return counts;
    }

    private static void takeHoldGiveBack(ReadWriteClients.Client client, boolean write, Counts counts) {
        try {
            if (!client.lock(write)) {
                counts.failed(new IllegalStateException("not acquired within " + ReadWriteClients.WAIT));
                return;
            }
            boolean overlapped = counts.check.enter(write);
            LockSupport.parkNanos(HOLD.toNanos());
            counts.check.leave(write, overlapped);
            client.unlock(write);
            (write ? counts.writes : counts.reads).incrementAndGet();
        } catch (Exception failure) {
            counts.failed(failure);
        }
    }

    /** What one run of the clients did. */
    static final class Counts {

        final AtomicLong reads = new AtomicLong();
        final AtomicLong writes = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicReference<String> firstFailure = new AtomicReference<>();
        final HolderCheck check = new HolderCheck();
        long nanos;

        private void failed(Exception failure) {
            failures.incrementAndGet();
            firstFailure.compareAndSet(null, failure.getClass().getSimpleName() + ": " + failure.getMessage());
        }

        double readsPerSecond() {
            return reads.get() * 1e9 / nanos;
        }

        double writesPerSecond() {
            return writes.get() * 1e9 / nanos;
        }
    }
}
