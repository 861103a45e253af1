package dev.distlock.test.simulation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The engine under the deterministic simulator: seeded runs of three simulated processes on one store, every fault
 * of {@link Faults#EVERY_KIND}, judged by the simulation's oracles. {@code -Ddistlock.simulation.seeds=N} runs more
 * seeds (the usual build runs {@value #DEFAULT_SEEDS}); a seed that fails prints its trace and belongs in
 * {@link #regressionSeeds}.
 */
class SimulationTest {

    private static final int DEFAULT_SEEDS = 500;

    @Test
    void everySeedKeepsEveryPromise() {
        assertEverySeedPasses(Scenario.DEFAULT, Integer.getInteger("distlock.simulation.seeds", DEFAULT_SEEDS));
    }

    /**
     * Blocking callers (threads of their own) beside a non-blocking one per process: sets taken inside a hold of one
     * of their names (re-entry), releases handing the name to another thread of the process, interrupts at any
     * moment of a call.
     */
    @Test
    void blockingCallersKeepEveryPromise() {
        assertEverySeedPasses(Scenario.BLOCKING, Integer.getInteger("distlock.simulation.seeds", DEFAULT_SEEDS) / 2);
    }

    /** Runs {@code seeds} seeds of {@code scenario} from the first one configured, and prints the figures. */
    private static void assertEverySeedPasses(Scenario scenario, int seeds) {
        long first = Long.getLong("distlock.simulation.first-seed", 1);
        List<String> failures = new ArrayList<>();
        List<Long> failingSeeds = new ArrayList<>();
        long holds = 0;
        long steps = 0;
        long started = System.nanoTime();
        for (long seed = first; seed < first + seeds; seed++) {
            SimulationResult result = Simulation.run(seed, scenario);
            holds += result.holds();
            steps += result.steps();
            if (!result.passed()) {
                failingSeeds.add(seed);
                if (failures.size() < 3) {
                    failures.add(result.report(80));
                }
            }
        }
        double seconds = (System.nanoTime() - started) / 1e9;
        System.out.printf("simulation: %d seeds, %d holds, %d steps in %.1f s (%.0f steps/s, %.1f seeds/s)%n", seeds,
                holds, steps, seconds, steps / seconds, seeds / seconds);
        assertThat(failures).as("%d failing seeds: %s", failingSeeds.size(), failingSeeds).isEmpty();
        assertThat(holds).as("holds taken: the callers got the locks, not only timeouts").isGreaterThan(seeds * 50L);
    }

    /** Seeds that broke a promise, each in its scenario ({@link #regressionSeeds} says what each found). */
    @ParameterizedTest(name = "{0} seed {1}")
    @MethodSource("regressionSeeds")
    void regressions(String scenario, long seed) {
        SimulationResult result = Simulation.run(seed, SCENARIOS.get(scenario));
        assertThat(result.violations()).as(result.report(120)).isEmpty();
    }

    private static final Map<String, Scenario> SCENARIOS = Map.of("DEFAULT", Scenario.DEFAULT, "READ_WRITE",
            Scenario.READ_WRITE, "BLOCKING", Scenario.BLOCKING);

    static Stream<Arguments> regressionSeeds() {
        return Stream.of(
                // a process closed its registry while a caller waited at its name's local gate, and the closing
                // executors dropped the step that would have ended that call (21, 53, 96); a set whose first name was
                // answered after its wait ran out sent a try for the second, past its wait and one command timeout
                // (257). Pinned by scripted tests too (MultiNameFaultsTest, SystemExecutorsTest).
                seeds("DEFAULT", 21, 53, 96, 257),
                // a reader's release whose reply was lost ran again after another reader's lease had run out, and
                // was reported lost; a registry closed just after a hold was answered, which the oracle took for a
                // hold answered lost
                seeds("READ_WRITE", 22, 25, 26, 28, 113, 149, 240, 499),
                // a releasing thread interrupted while its release carried the next local caller's try kept that
                // caller waiting until the release was sent again and answered (19); an interrupt that came while a
                // step that took the lock was already queued was cleared and never told (3, 4, 10)
                seeds("BLOCKING", 3, 4, 10, 19)).flatMap(Function.identity());
    }

    private static Stream<Arguments> seeds(String scenario, long... seeds) {
        return LongStream.of(seeds).mapToObj(seed -> Arguments.of(scenario, seed));
    }

    @Test
    void aSeedOfBlockingCallersReplaysTheSameRunEventForEvent() {
        SimulationResult first = Simulation.run(3, Scenario.BLOCKING);
        SimulationResult again = Simulation.run(3, Scenario.BLOCKING);

        assertThat(again.trace()).isEqualTo(first.trace());
        assertThat(first.trace()).anyMatch(line -> line.contains("is interrupted during"))
                .anyMatch(line -> line.contains("inside its hold of"));
    }

    @Test
    void aSeedReplaysTheSameRunEventForEvent() {
        SimulationResult first = Simulation.run(7, Scenario.DEFAULT);
        SimulationResult again = Simulation.run(7, Scenario.DEFAULT);

        assertThat(again.trace()).isEqualTo(first.trace());
        assertThat(again.steps()).isEqualTo(first.steps());
        assertThat(first.trace()).anyMatch(line -> line.contains("replayed:"))
                .anyMatch(line -> line.contains("reply lost:")).anyMatch(line -> line.contains("pauses for"));
    }

    @Test
    void withoutFaultsNothingIsLostAndCallersAreServed() {
        Scenario calm = Scenario.DEFAULT.with(Faults.NONE);
        SimulationResult result = Simulation.run(5, calm);

        assertThat(result.violations()).as(result.report(80)).isEmpty();
        assertThat(result.trace()).noneMatch(line -> line.contains("lost"));
        assertThat(result.holds()).isGreaterThan(100);
    }

    @Test
    void readersAndWritersOfReadWriteLocksBesideLocksKeepEveryPromise() {
        int seeds = Integer.getInteger("distlock.simulation.seeds", DEFAULT_SEEDS) / 2;
        long holds = 0;
        List<String> failures = new ArrayList<>();
        for (long seed = 1; seed <= seeds; seed++) {
            SimulationResult result = Simulation.run(seed, Scenario.READ_WRITE);
            holds += result.holds();
            if (!result.passed()) {
                failures.add("seed " + seed + ":\n" + result.report(60));
            }
        }
        assertThat(failures).as(String.join("\n", failures)).isEmpty();
        assertThat(holds).as("holds taken").isGreaterThan(seeds * 50L);
    }

    @Test
    void moreProcessesNamesAndSetsKeepEveryPromise() {
        Scenario longer = new Scenario(4, 3, 3, 0.3, Duration.ofMillis(300), Duration.ofSeconds(1),
                Duration.ofSeconds(30), Faults.EVERY_KIND);
        SimulationResult result = Simulation.run(99, longer);

        assertThat(result.violations()).as(result.report(120)).isEmpty();
    }
}
