package dev.distlock.benchmarks.permits;

import dev.distlock.benchmarks.contenders.InterleavedRounds;
import dev.distlock.benchmarks.contenders.RedisAddress;
import dev.distlock.benchmarks.redis.RedisStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Clients on one semaphore of a few permits, each on a connection of its own (a process each), taking a permit,
 * holding it briefly and giving it back, as fast as they can: distlock's {@link dev.distlock.core.LeasedSemaphore}
 * against Redisson's {@code RPermitExpirableSemaphore} (a permit per taking, with its own lease, as distlock's).
 * Rounds alternate which contender runs first. The clients count how many are inside at once: never more than the
 * permits, or the run says so.
 */
public final class PermitsComparison {

    /** The contenders, in the order of the first round. */
    public static final List<String> CONTENDERS = List.of("distlock", "redisson");
    /** The clients, the semaphore's permits and how long each taking holds its permit. */
    public static final int CLIENTS = 8;
    public static final int PERMITS = 3;
    public static final Duration HOLD = Duration.ofNanos(100_000);
    /** The workload in words, for the report. */
    public static final String WORKLOAD = CLIENTS + " clients, " + PERMITS + " permits, holds of "
            + HOLD.toNanos() / 1000 + " µs";

    private final RedisAddress redis;
    private final RedisStats stats;

    public PermitsComparison(RedisAddress redis, RedisStats stats) {
        this.redis = redis;
        this.stats = stats;
    }

    /** {@code rounds} rounds of {@code measurement} each per contender, after {@code warmup} on the same clients. */
    public List<PermitsResult> run(Duration warmup, Duration measurement, int rounds) throws Exception {
        Map<String, Tally> tallies = new LinkedHashMap<>();
        CONTENDERS.forEach(contender -> tallies.put(contender, new Tally()));
        InterleavedRounds.run(CONTENDERS, rounds, stats,
                (contender, name) -> tallies.get(contender).add(measure(contender, name, warmup, measurement)));
        List<PermitsResult> results = new ArrayList<>();
        tallies.forEach((contender, tally) -> results.add(new PermitsResult(contender,
                PermitClients.description(contender), tally.perSecond, tally.mostInside, tally.failures)));
        return results;
    }

    private Round measure(String contender, String name, Duration warmup, Duration measurement) throws Exception {
        List<PermitClients.Client> opened = new ArrayList<>();
        try {
            for (int i = 0; i < CLIENTS; i++) {
                opened.add(PermitClients.of(contender, redis, name, PERMITS));
            }
            run(opened, warmup, new Counters());
            Counters counted = new Counters();
            long nanos = run(opened, measurement, counted);
            return new Round(counted.takings.get() * 1e9 / nanos, counted.mostInside.get(), counted.failures.get());
        } finally {
            opened.forEach(PermitClients.Client::close);
        }
    }

    /** Every client takes, holds and gives back until {@code length} passed; returns the nanoseconds it took. */
    private long run(List<PermitClients.Client> opened, Duration length, Counters counters)
            throws InterruptedException {
        CountDownLatch done = new CountDownLatch(opened.size());
        long start = System.nanoTime();
        long end = start + length.toNanos();
        for (PermitClients.Client client : opened) {
            Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        takeHoldGiveBack(client, counters);
                    }
                } finally {
                    done.countDown();
                }
            }, "permits-client");
            thread.setDaemon(true);
            thread.start();
        }
        if (!done.await(length.toSeconds() + 60, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the permit clients did not stop within a minute after the measurement");
        }
        return System.nanoTime() - start;
    }

    private void takeHoldGiveBack(PermitClients.Client client, Counters counters) {
        try {
            Object permit = client.take();
            if (permit == null) {
                counters.failures.incrementAndGet();
                return;
            }
            int now = counters.inside.incrementAndGet();
            counters.mostInside.accumulateAndGet(now, Math::max);
            LockSupport.parkNanos(HOLD.toNanos());
            counters.inside.decrementAndGet();
            client.giveBack(permit);
            counters.takings.incrementAndGet();
        } catch (Exception failure) {
            counters.failures.incrementAndGet();
        }
    }

    private static final class Counters {

        final AtomicLong takings = new AtomicLong();
        final AtomicLong failures = new AtomicLong();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger mostInside = new AtomicInteger();
    }

    private record Round(double perSecond, int mostInside, long failures) {
    }

    private static final class Tally {

        final List<Double> perSecond = new ArrayList<>();
        int mostInside;
        long failures;

        void add(Round round) {
            perSecond.add(round.perSecond());
            mostInside = Math.max(mostInside, round.mostInside());
            failures += round.failures();
        }
    }
}
