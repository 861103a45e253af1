package dev.distlock.benchmarks.scenarios;

import dev.distlock.benchmarks.contenders.Contender;
import dev.distlock.benchmarks.contenders.LockClient;
import dev.distlock.benchmarks.redis.RedisCounters;
import dev.distlock.benchmarks.redis.RedisStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;

/**
 * Runs one measurement: opens the clients, warms them up on keys of their own, then runs the timed phase on fresh
 * keys while reading Redis's counters before and after, and closes the clients.
 */
public final class MeasurementRunner {

    private static final long STUCK_AFTER_MILLIS = TimeUnit.MINUTES.toMillis(1);

    private final Duration warmup;
    private final Duration duration;

    /**
     * @param warmup untimed run before each measurement, with the same clients
     * @param duration the timed run
     */
    public MeasurementRunner(Duration warmup, Duration duration) {
        this.warmup = warmup;
        this.duration = duration;
    }

    /**
     * Measures {@code contender} in {@code scenario} with {@code threads} threads where the scenario lets it vary,
     * reading {@code stats} of the servers it runs on.
     */
    public Measurement run(Contender contender, RedisStats stats, Scenario scenario, int threads, int round)
            throws InterruptedException {
        Workload workload = scenario.workload(threads);
        String keys = "bench:r" + round + ":s" + scenario.number() + ":" + contender.name();
        List<LockClient> clients = open(contender, workload);
        try {
            if (!warmup.isZero()) {
                new Phase(clients, workload, keys + ":warmup", warmup.toNanos()).run();
            }
            RedisCounters before = stats.read();
            Phase phase = new Phase(clients, workload, keys, duration.toNanos());
            int stuck = phase.run();
            RedisCounters redis = stats.read().minus(before);
            return phase.measurement(contender.name(), scenario, round, redis, stuck);
        } finally {
            clients.forEach(LockClient::close);
        }
    }

    private static List<LockClient> open(Contender contender, Workload workload) {
        int count = workload.clientPerThread() ? workload.threads() : 1;
        List<LockClient> clients = new ArrayList<>(count);
        try {
            for (int i = 0; i < count; i++) {
                clients.add(contender.newClient());
            }
        } catch (RuntimeException ex) {
            clients.forEach(LockClient::close);
            throw ex;
        }
        return clients;
    }

    /** The threads of one run and what they counted. */
    private static final class Phase {

        private final Workload workload;
        private final long durationNanos;
        private final PhaseClock clock;
        private final List<Worker> workers = new ArrayList<>();
        private final List<GuardedCounter> counters = new ArrayList<>();

        Phase(List<LockClient> clients, Workload workload, String keyPrefix, long durationNanos) {
            this.workload = workload;
            this.durationNanos = durationNanos;
            this.clock = new PhaseClock(workload.threads(), durationNanos);
            GuardedCounter shared = new GuardedCounter();
            for (int i = 0; i < workload.threads(); i++) {
                LockClient client = clients.get(workload.clientPerThread() ? i : 0);
                GuardedCounter counter = workload.sharedKey() ? shared : new GuardedCounter();
                String key = workload.sharedKey() ? keyPrefix + ":k" : keyPrefix + ":k" + i;
                if (!counters.contains(counter)) {
                    counters.add(counter);
                }
                workers.add(new Worker(client, key, counter, workload, clock));
            }
        }

        /** Runs the workers to the deadline; returns how many threads had to be abandoned. */
        int run() throws InterruptedException {
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < workers.size(); i++) {
                Thread thread = new Thread(workers.get(i), "bench-worker-" + i);
                thread.setDaemon(true);
                threads.add(thread);
                thread.start();
            }
            long deadline = clock.start();
            int stuck = 0;
            for (Thread thread : threads) {
                long left = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()) + STUCK_AFTER_MILLIS;
                thread.join(Math.max(1, left));
                if (thread.isAlive()) {
                    stuck++;
                    thread.interrupt();
                }
            }
            return stuck;
        }

        Measurement measurement(String contender, Scenario scenario, int round, RedisCounters redis, int stuck) {
            Histogram waits = new Histogram(3);
            long[] acquired = new long[workers.size()];
            long entries = 0;
            long unfinished = 0;
            long errors = 0;
            long held = 0;
            String firstError = null;
            for (int i = 0; i < workers.size(); i++) {
                Worker worker = workers.get(i);
                waits.add(worker.waits);
                acquired[i] = worker.acquired;
                entries += worker.entries;
                unfinished += worker.unfinished;
                errors += worker.errors;
                held += worker.heldNanos;
                if (firstError == null && worker.firstError != null) {
                    firstError = worker.firstError.toString();
                }
            }
            long counted = counters.stream().mapToLong(GuardedCounter::value).sum();
            long overlaps = counters.stream().mapToLong(GuardedCounter::overlaps).sum();
            return new Measurement(contender, scenario, round, workload, durationNanos / 1e9, acquired, entries,
                    counted, overlaps, unfinished, errors, firstError, waits, held, redis, stuck);
        }
    }
}
