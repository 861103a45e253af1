package dev.distlock.benchmarks;

import dev.distlock.benchmarks.contenders.Contenders;
import dev.distlock.benchmarks.scenarios.Scenario;
import dev.distlock.benchmarks.topologies.Topology;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * What a benchmark run does, from its command line. Defaults: everything, as a full run does it.
 *
 * @param parts which parts run
 * @param scenarios the scenarios, in order
 * @param contenders the contenders' names, in the order each round runs them
 * @param topologies the topologies distlock runs on in the topology comparison, in the order each round runs them
 * @param measurement the timed length of each measurement
 * @param warmup the untimed run before each measurement
 * @param warmupPass whether an untimed pass through every scenario and contender comes before the first round
 * @param rounds how often every contender runs every scenario
 * @param threads threads of scenarios 2 and 3
 * @param roundTripOperations lock+unlock pairs watched with MONITOR per contender
 * @param memoryNames distinct names of the memory check (checkpoints at a tenth and at all of them)
 * @param asyncWaiters non-blocking waiters on one name in the async check (a twentieth of them on distinct names)
 * @param asyncRounds how often the async check makes its calls on distinct names, each time all at once
 * @param costOperations lock+unlock pairs per run of the cost check on the in-memory registry (a twentieth on Redis)
 * @param costCases the cases of the cost check, in order
 * @param renewalHolds renewed holds kept at once in the renewal check
 * @param jmhQuick JMH in this JVM for a few hundred milliseconds: proves it runs, measures nothing
 * @param report where the Markdown report is written
 * @param results where the results file (JSON, the charts' input) is written
 * @param charts the directory the SVG charts are written into
 */
public record BenchmarkOptions(Set<Part> parts, List<Scenario> scenarios, List<String> contenders,
        List<String> topologies, Duration measurement, Duration warmup, boolean warmupPass, int rounds, int threads,
        int roundTripOperations, long memoryNames, int asyncWaiters, int asyncRounds, int costOperations,
        List<String> costCases, int renewalHolds, boolean jmhQuick, Path report, Path results, Path charts) {

    /** The parts of a run. */
    public enum Part {
        /** The four scenarios, every contender, interleaved over the rounds. */
        SCENARIOS,
        /** Round trips and commands of an uncontended lock+unlock, with MONITOR. */
        ROUNDTRIPS,
        /** Retained heap over a million distinct names. */
        MEMORY,
        /** JMH: the annotation layer. */
        JMH,
        /** Non-blocking callers: thousands of waiters on one name, hundreds at once on distinct names. */
        ASYNC,
        /** distlock's scenarios on one server, a cluster, a primary with replica acknowledgement and Redlock. */
        TOPOLOGIES,
        /** The Java-side CPU time and allocation of one uncontended lock+unlock, in memory and on Redis. */
        COST,
        /** The watchdog's script calls per renewal period while ten thousand renewed holds are held. */
        RENEWALS,
        /** A semaphore of 3 leased permits, 8 clients taking and giving back: distlock against Redisson. */
        PERMITS,
        /**
         * A read-write lock, 8 clients reading 90% and writing 10%: distlock against Redisson; then distlock's readers
         * of one name against its exclusive lock.
         */
        READWRITE
    }

    /** The cases of the cost check, in the order they run by default. */
    public static final List<String> COST_CASES = List.of("memory-same", "memory-distinct", "memory-execute",
            "engine-same", "redis-lock", "redis-async", "floor");

    static final String USAGE = """
            Options (defaults in brackets):
              --parts scenarios,roundtrips,memory,jmh,async,topologies,cost,renewals,permits,readwrite   parts to run [all]
              --skip jmh,memory                         parts not to run [none]
              --scenarios 1,2,3,4,5                     scenarios [all]
              --contenders distlock,redisson,si-spin,si-pubsub,floor   contenders, run in this order [these]
                                                        (also distlock-fixed: a fixed lease, no watchdog)
              --topologies single,cluster,acks,redlock  topologies of distlock, run in this order [these]
              --seconds 5                               timed length of each measurement, decimals allowed [5]
              --warmup 1                                untimed run before each measurement [seconds/5, 0.1 to 1]
              --no-warmup-pass                          skip the untimed pass through everything before round 1
              --rounds 2                                rounds (every contender, every scenario) [2]
              --threads 8                               threads of scenarios 2 and 3 [8]
              --roundtrip-ops 1000                      lock+unlock pairs watched with MONITOR [1000]
              --memory-names 1000000                    distinct names of the memory check [1000000]
              --async-waiters 10000                     non-blocking waiters on one name (a twentieth on distinct names) [10000]
              --async-rounds 20                         rounds of the calls at once on distinct names [20]
              --cost-ops 200000                         lock+unlock pairs per run of the cost check in memory (a twentieth on Redis) [200000]
              --cost-cases memory-same,memory-distinct,memory-execute,engine-same,redis-lock,redis-async,floor   cases of the cost check [these]
              --renewal-holds 10000                     renewed holds kept at once in the renewal check [10000]
              --jmh-quick                               JMH in-process for a few hundred ms (smoke test)
              --report FILE                             where the Markdown report goes [benchmarks/target/benchmark-report.md]
              --results FILE                            where the results file goes [benchmarks/target/benchmark-results.json]
              --charts DIR                              where the SVG charts go [benchmarks/target/charts]
            """;

    /** Everything with the full run's settings. */
    public static BenchmarkOptions defaults() {
        return parse();
    }

    /**
     * Parses the command line.
     *
     * @throws IllegalArgumentException naming the bad option
     */
    public static BenchmarkOptions parse(String... args) {
        Set<Part> parts = EnumSet.allOf(Part.class);
        List<Scenario> scenarios = List.of(Scenario.values());
        List<String> contenders = Contenders.NAMES;
        List<String> topologies = Topology.NAMES;
        Duration measurement = Duration.ofSeconds(5);
        Duration warmup = null;
        boolean warmupPass = true;
        int rounds = 2;
        int threads = 8;
        int roundTripOperations = 1000;
        long memoryNames = 1_000_000;
        int asyncWaiters = 10_000;
        int asyncRounds = 20;
        int costOperations = 200_000;
        List<String> costCases = COST_CASES;
        int renewalHolds = 10_000;
        boolean jmhQuick = false;
        Path target = targetDirectory();
        Path report = target.resolve("benchmark-report.md");
        Path results = target.resolve("benchmark-results.json");
        Path charts = target.resolve("charts");
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (option.equals("--jmh-quick")) {
                jmhQuick = true;
                continue;
            }
            if (option.equals("--no-warmup-pass")) {
                warmupPass = false;
                continue;
            }
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException("unknown option or missing value: " + option + "\n" + USAGE);
            }
            String value = args[++i];
            switch (option) {
                case "--parts" -> parts = parts(value);
                case "--skip" -> parts.removeAll(parts(value));
                case "--scenarios" -> scenarios = list(value).stream().map(n -> Scenario.of(Integer.parseInt(n)))
                        .toList();
                case "--contenders" -> contenders = known("contender", list(value), Contenders.NAMES,
                        Contenders.EXTRA_NAMES);
                case "--topologies" -> topologies = known("topology", list(value), Topology.NAMES, List.of());
                case "--seconds" -> measurement = seconds(value);
                case "--warmup" -> warmup = seconds(value);
                case "--rounds" -> rounds = positive(option, value);
                case "--threads" -> threads = positive(option, value);
                case "--roundtrip-ops" -> roundTripOperations = positive(option, value);
                case "--memory-names" -> memoryNames = positive(option, value);
                case "--async-waiters" -> asyncWaiters = positive(option, value);
                case "--async-rounds" -> asyncRounds = positive(option, value);
                case "--cost-ops" -> costOperations = positive(option, value);
                case "--cost-cases" -> costCases = known("cost case", list(value), COST_CASES, List.of());
                case "--renewal-holds" -> renewalHolds = positive(option, value);
                case "--report" -> report = Path.of(value);
                case "--results" -> results = Path.of(value);
                case "--charts" -> charts = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + option + "\n" + USAGE);
            }
        }
        if (warmup == null) {
            long fifth = measurement.toMillis() / 5;
            warmup = Duration.ofMillis(Math.max(100, Math.min(1000, fifth)));
        }
        return new BenchmarkOptions(Set.copyOf(parts), scenarios, contenders, topologies, measurement, warmup,
                warmupPass, rounds, threads, roundTripOperations, memoryNames, asyncWaiters, asyncRounds,
                costOperations, costCases, renewalHolds, jmhQuick, report, results, charts);
    }

    /** The module's {@code target} directory, wherever the command runs from; else where it runs. */
    private static Path targetDirectory() {
        try {
            Path classes = Path.of(BenchmarkOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            if (classes.endsWith(Path.of("target", "classes"))) {
                return classes.getParent();
            }
        } catch (URISyntaxException | RuntimeException ex) {
            // fall through: next to wherever the command runs
        }
        return Path.of("");
    }

    /** Whether {@code part} runs. */
    public boolean runs(Part part) {
        return parts.contains(part);
    }

    private static Set<Part> parts(String value) {
        Set<Part> parts = EnumSet.noneOf(Part.class);
        for (String name : list(value)) {
            try {
                parts.add(Part.valueOf(name.toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException ex) {
                throw new IllegalArgumentException("unknown part '" + name + "'; parts: " + Arrays.toString(
                        Part.values()).toLowerCase(Locale.ROOT), ex);
            }
        }
        return parts;
    }

    private static List<String> known(String what, List<String> names, List<String> known, List<String> extra) {
        for (String name : names) {
            if (!known.contains(name) && !extra.contains(name)) {
                throw new IllegalArgumentException("unknown " + what + " '" + name + "'; known: " + known
                        + (extra.isEmpty() ? "" : " and " + extra));
            }
        }
        return names;
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::trim).filter(s -> !s.isEmpty()).toList();
    }

    private static Duration seconds(String value) {
        return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
    }

    private static int positive(String option, String value) {
        int number = Integer.parseInt(value);
        if (number < 1) {
            throw new IllegalArgumentException(option + " must be at least 1, got " + value);
        }
        return number;
    }
}
