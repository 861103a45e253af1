package dev.distlock.test.simulation;

import dev.distlock.test.scripted.ScriptedLockRegistry;
import java.util.SplittableRandom;

/**
 * What every caller of a simulated process has, blocking ({@link BlockingCaller}) or not ({@link SimCaller}): its
 * registry, its own share of the seed's randomness, how its calls are judged ({@link Verdicts}), how many holds it got,
 * and whether its process closed its registry.
 */
abstract class SimulatedCaller {

    final String id;
    final Simulation simulation;
    final SimProcess process;
    final ScriptedLockRegistry registry;
    final SplittableRandom random;
    /** When it stops starting calls, in virtual time. */
    final long endNanos;
    final Verdicts verdicts;
    /** Its process closed its registry: it starts no new call. */
    volatile boolean stopped;
    long holds;

    SimulatedCaller(Simulation simulation, SimProcess process, ScriptedLockRegistry registry, String id,
            long endNanos) {
        this.simulation = simulation;
        this.process = process;
        this.registry = registry;
        this.id = id;
        this.endNanos = endNanos;
        this.random = simulation.scheduler().split();
        this.verdicts = new Verdicts(simulation, id);
    }

    SimProcess process() {
        return process;
    }

    /** Its process closes its registry: no new call from now on. */
    void stop() {
        stopped = true;
        verdicts.stop();
    }

    long holds() {
        return holds;
    }

    /** Whether no call of its is under way. */
    abstract boolean idle();

    /** The call under way, for a report. */
    abstract String pending();
}
