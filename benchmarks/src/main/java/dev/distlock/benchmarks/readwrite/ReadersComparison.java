package dev.distlock.benchmarks.readwrite;

import dev.distlock.benchmarks.contenders.InterleavedRounds;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.benchmarks.redis.RedisStats;
import dev.distlock.core.FencedLock;
import dev.distlock.redis.RedisLockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Readers do not serialize: threads of one process (one distlock registry) on one name, taking only the read side of
 * a read-write lock, against the same threads taking the exclusive lock of a name, with the same holds. Were readers
 * queued one behind another, in Redis or in the registry, they would go no faster than the exclusive lock; going in
 * together they go about as many times faster as there are threads. Rounds alternate which side runs first.
 */
public final class ReadersComparison {

    /** The threads, and the holds as the read-write comparison's. */
    public static final int THREADS = 8;
    /** The workload in words, for the report. */
    public static final String WORKLOAD = THREADS + " threads of one registry on one name, holds of "
            + Load.HOLD.toNanos() / 1000 + " µs";

    private static final List<String> SIDES = List.of("readers", "exclusive");

    private final RedisAddress redis;
    private final RedisStats stats;

    public ReadersComparison(RedisAddress redis, RedisStats stats) {
        this.redis = redis;
        this.stats = stats;
    }

    /** {@code rounds} rounds of {@code measurement} each per side, after {@code warmup} on the same registry. */
    public ReadersResult run(Duration warmup, Duration measurement, int rounds) throws Exception {
        Tally tally = new Tally();
        InterleavedRounds.run(SIDES, rounds, stats, (side, name) -> tally.add(side.equals("readers"),
                measure(side + "-" + name, side.equals("readers"), warmup, measurement)));
        return new ReadersResult(tally.reads, tally.exclusive, tally.mostReaders, tally.mostExclusive, tally.failures,
                tally.firstFailure);
    }

    /** What the rounds of both sides measured. */
    private static final class Tally {

        final List<Double> reads = new ArrayList<>();
        final List<Double> exclusive = new ArrayList<>();
        int mostReaders;
        int mostExclusive;
        long failures;
        String firstFailure;

        void add(boolean readers, Load.Counts counts) {
            if (readers) {
                reads.add(counts.readsPerSecond());
                mostReaders = Math.max(mostReaders, counts.check.mostReaders());
            } else {
                exclusive.add(counts.writesPerSecond());
                mostExclusive = Math.max(mostExclusive, counts.check.mostWriters());
            }
            failures += counts.failures.get();
            if (firstFailure == null) {
                firstFailure = counts.firstFailure.get();
            }
        }
    }

    /**
     * One registry, its threads all on {@code name}: the read side of its read-write lock, or its exclusive lock
     * (which the harness counts as a writer, so that two inside at once show).
     */
    private Load.Counts measure(String name, boolean readers, Duration warmup, Duration measurement)
            throws InterruptedException {
        LettuceConnectionFactory factory = redis.newConnectionFactory();
        try (RedisLockRegistry registry = RedisLockRegistry.builder(factory).keyPrefix("bench-readers").build()) {
            FencedLock lock = readers ? registry.readWriteLock(name).readLock() : registry.obtain(name);
            List<ReadWriteClients.Client> threads = Collections.nCopies(THREADS, ReadWriteClients.on(lock));
            Load.run(threads, index -> () -> !readers, warmup);
            return Load.run(threads, index -> () -> !readers, measurement);
        } finally {
            factory.destroy();
        }
    }
}
