package dev.distlock.benchmarks.readwrite;

import dev.distlock.benchmarks.contenders.InterleavedRounds;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.benchmarks.redis.RedisStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * A read-mostly load on one read-write lock: clients, each on a connection of its own (a process each), read or
 * write at random, nine reads to a write, each holding briefly, as fast as they can: distlock's
 * {@link dev.distlock.core.FencedReadWriteLock} against Redisson's {@code RReadWriteLock}. A read-write lock earns its
 * keep when readers go in together; this measures whether they do across processes while writers still get their
 * turn, and the harness checks that no writer ever shares the lock. Rounds alternate which contender runs first.
 */
public final class ReadWriteComparison {

    /** The contenders, in the order of the first round. */
    public static final List<String> CONTENDERS = List.of("distlock", "redisson");
    /** The clients and the share of their acquisitions that write. */
    public static final int CLIENTS = 8;
    public static final double WRITE_SHARE = 0.1;
    /** Every client draws its reads and writes from a random of its own, seeded: the same mix on every run. */
    static final long SEED = 20_261_129L;
    /** The workload in words, for the report. */
    public static final String WORKLOAD = CLIENTS + " clients on one name, " + Math.round((1 - WRITE_SHARE) * 100)
            + "% reads, " + Math.round(WRITE_SHARE * 100) + "% writes, holds of " + Load.HOLD.toNanos() / 1000 + " µs";

    private final RedisAddress redis;
    private final RedisStats stats;

    public ReadWriteComparison(RedisAddress redis, RedisStats stats) {
        this.redis = redis;
        this.stats = stats;
    }

    /** {@code rounds} rounds of {@code measurement} each per contender, after {@code warmup} on the same clients. */
    public List<ReadWriteResult> run(Duration warmup, Duration measurement, int rounds) throws Exception {
        Map<String, Tally> tallies = new LinkedHashMap<>();
        CONTENDERS.forEach(contender -> tallies.put(contender, new Tally()));
        InterleavedRounds.run(CONTENDERS, rounds, stats,
                (contender, name) -> tallies.get(contender).add(measure(contender, name, warmup, measurement)));
        List<ReadWriteResult> results = new ArrayList<>();
        tallies.forEach((contender, t) -> results.add(new ReadWriteResult(contender,
                ReadWriteClients.description(contender), t.reads, t.writes, t.writerOverlaps, t.mostReaders,
                t.mostWriters, t.failures, t.firstFailure)));
        return results;
    }

    private Load.Counts measure(String contender, String name, Duration warmup, Duration measurement)
            throws Exception {
        List<ReadWriteClients.Client> opened = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                opened.add(ReadWriteClients.of(contender, redis, name));
            }
            Load.run(opened, ReadWriteComparison::mix, warmup);
            return Load.run(opened, ReadWriteComparison::mix, measurement);
        } finally {
            opened.forEach(ReadWriteClients.Client::close);
        }
    }

    /** Client {@code index}'s reads and writes: {@link #WRITE_SHARE} of them writes, from its own seeded random. */
    private static BooleanSupplier mix(int index) {
        SplittableRandom random = new SplittableRandom(SEED + index);
        return () -> random.nextDouble() < WRITE_SHARE;
    }

    /** One contender's rounds. */
    private static final class Tally {

        final List<Double> reads = new ArrayList<>();
        final List<Double> writes = new ArrayList<>();
        long writerOverlaps;
        int mostReaders;
        int mostWriters;
        long failures;
        String firstFailure;

        void add(Load.Counts round) {
            reads.add(round.readsPerSecond());
            writes.add(round.writesPerSecond());
            writerOverlaps += round.check.writerOverlaps();
            mostReaders = Math.max(mostReaders, round.check.mostReaders());
            mostWriters = Math.max(mostWriters, round.check.mostWriters());
            failures += round.failures.get();
            if (firstFailure == null) {
                firstFailure = round.firstFailure.get();
            }
        }
    }
}
