package dev.distlock.benchmarks.memory;

import dev.distlock.benchmarks.memory.MemoryResult.Checkpoint;
import dev.distlock.benchmarks.memory.MemoryResult.ClassGrowth;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Locks and unlocks a million distinct names (by default) on one registry and takes the live heap at a few
 * checkpoints: a registry that keeps state only for held names must not grow with the number of names.
 */
public final class MemoryCheck {

    private static final int TOP_CLASSES = 5;
    /** Smaller growth of a class is the noise of a full collection, not worth naming. */
    private static final long NOTABLE_GROWTH_BYTES = 16 * 1024;
    private static final long WAIT_SECONDS = 10;
    /** How long the heap is left to settle before a histogram: a few ticks of the client's timeout timer. */
    private static final long SETTLE_MILLIS = 500;

    private final int threads;

    /** @param threads how many threads lock and unlock in parallel (a Redis registry is round-trip bound) */
    public MemoryCheck(int threads) {
        this.threads = threads;
    }

    /**
     * Runs the check: a warm-up on other names (a tenth of the first checkpoint), then the live heap before the
     * first name and at each of {@code checkpoints} (increasing counts of names).
     */
    public MemoryResult run(String registryName, LockRegistry registry, List<Long> checkpoints)
            throws InterruptedException {
        long started = System.nanoTime();
        lockAndUnlock(registry, "memory-warmup:", 0, Math.max(1, checkpoints.get(0) / 10));
        List<Checkpoint> points = new ArrayList<>();
        HeapHistogram before = settledHistogram();
        points.add(new Checkpoint(0, before.totalBytes()));
        HeapHistogram atFirst = null;
        HeapHistogram last = before;
        long done = 0;
        for (long target : checkpoints) {
            lockAndUnlock(registry, "memory:", done, target);
            done = target;
            last = settledHistogram();
            atFirst = atFirst == null ? last : atFirst;
            points.add(new Checkpoint(target, last.totalBytes()));
        }
        return new MemoryResult(registryName, points, growth(atFirst, last), (System.nanoTime() - started) / 1e9);
    }

    /**
     * The live heap once the client has let go of the commands just answered: Lettuce's command timeouts hold each
     * command until their timer's next tick after it completed (a tenth of a second), so a histogram taken at once
     * counts as many commands as the last tick saw, which grows with the pace of the run, not with its names.
     */
    private static HeapHistogram settledHistogram() throws InterruptedException {
        Thread.sleep(SETTLE_MILLIS);
        return HeapHistogram.takeLive();
    }

    /** Locks and unlocks the names {@code prefix + i} for {@code from <= i < to}, on several threads. */
    private void lockAndUnlock(LockRegistry registry, String prefix, long from, long to) throws InterruptedException {
        AtomicLong next = new AtomicLong(from);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                done.add(pool.submit(() -> {
                    long i;
                    while ((i = next.getAndIncrement()) < to) {
                        lockAndUnlock(registry.obtain(prefix + i));
                    }
                    return null;
                }));
            }
            for (Future<?> future : done) {
                future.get();
            }
        } catch (ExecutionException ex) {
            throw new IllegalStateException("the memory check failed", ex.getCause());
        } finally {
            pool.shutdownNow();
        }
    }

    private static void lockAndUnlock(FencedLock lock) throws InterruptedException {
        if (!lock.tryLock(WAIT_SECONDS, TimeUnit.SECONDS)) {
            throw new IllegalStateException("lock " + lock.name() + " was not granted in " + WAIT_SECONDS + " s");
        }
        lock.unlock();
    }

    private static List<ClassGrowth> growth(HeapHistogram from, HeapHistogram to) {
        return to.bytesByClass().keySet().stream()
                .map(name -> new ClassGrowth(name,
                        to.bytesByClass().get(name) - from.bytesByClass().getOrDefault(name, 0L),
                        to.instancesByClass().get(name) - from.instancesByClass().getOrDefault(name, 0L)))
                .filter(growth -> growth.bytes() >= NOTABLE_GROWTH_BYTES)
                .sorted(Comparator.comparingLong(ClassGrowth::bytes).reversed())
                .limit(TOP_CLASSES)
                .toList();
    }
}
