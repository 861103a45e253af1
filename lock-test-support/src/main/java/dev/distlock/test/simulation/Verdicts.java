package dev.distlock.test.simulation;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CancellationException;

/**
 * How one caller's calls are judged, blocking or not: which failures a call may end with (those of its own commands'
 * simulated faults, its own cancellation, its registry's close), and when a release may report a loss (never for a
 * release that took effect in the store).
 */
final class Verdicts {

    /** What a bound allows beyond the wait and two command timeouts: the steps' own time on a busy process. */
    static final long SLACK_NANOS = Duration.ofMillis(20).toNanos();

    private final Simulation simulation;
    private final String caller;
    /** Its process closed its registry. */
    private boolean stopped;

    Verdicts(Simulation simulation, String caller) {
        this.simulation = simulation;
        this.caller = caller;
    }

    /** Its process closes its registry: calls may fail with the registry's {@link IllegalStateException}. */
    void stop() {
        stopped = true;
    }

    boolean stopped() {
        return stopped;
    }

    /**
     * How long an acquisition of {@code names} names with {@code waitNanos} may take: its wait and one command
     * timeout (the try in flight when the wait runs out), or one command timeout per name without a wait (one try
     * each); beyond it, {@link #SLACK_NANOS} for the steps and the time its process was paused.
     */
    static long acquireBound(long waitNanos, int names, Duration commandTimeout) {
        return waitNanos + (waitNanos == 0 ? names : 1) * commandTimeout.toNanos();
    }

    /** One name of {@code all}, or two with the chance {@code setChance}. */
    static List<String> pickNames(List<String> all, double setChance, SplittableRandom random) {
        String first = all.get(random.nextInt(all.size()));
        if (all.size() < 2 || random.nextDouble() >= setChance) {
            return List.of(first);
        }
        List<String> others = new ArrayList<>(all);
        others.remove(first);
        return List.of(first, others.get(random.nextInt(others.size())));
    }

    /**
     * An acquisition {@code what} failed with {@code cause}: a simulated fault of its commands, its own cancellation
     * ({@code cancelled}) or its registry's close.
     */
    void acquireFailed(String what, Throwable cause, boolean cancelled) {
        boolean expected = cause instanceof CancellationException && cancelled
                || cause instanceof LockBackendException && isSimulatedFault(cause.getCause())
                || stopped && cause instanceof IllegalStateException;
        if (!expected) {
            simulation.violation(caller + "'s " + what + " failed with " + cause);
        }
        simulation.event(caller + " gave up on " + what + ": " + cause.getClass().getSimpleName());
    }

    /**
     * A release {@code what} of a hold with {@code tokens} ended with {@code cause} ({@code null}: released): a loss
     * only of a name of its own whose release did not take effect (or given back by its registry's close), a failure
     * only a simulated fault of its commands.
     */
    void released(String what, Map<String, Long> tokens, Throwable cause) {
        if (cause instanceof LockLostException lost) {
            String name = lost.getLockName();
            Long fence = tokens.get(name);
            if (fence == null) {
                simulation.violation(caller + "'s " + what + " reported another name lost: " + name);
            } else if (stopped && lost.reason().contains("registry was closed")) {
                simulation.event(caller + "'s hold of '" + name + "' was given back by its registry's close");
            } else if (simulation.store().releaseTookEffect(name, fence)) {
                simulation.violation(caller + "'s release of '" + name + "' #" + fence
                        + " took effect but was reported lost: " + lost.getMessage());
            }
        } else if (cause != null && !(cause instanceof LockBackendException && isSimulatedFault(cause.getCause()))) {
            simulation.violation(caller + "'s " + what + " failed with " + cause);
        }
        simulation.event(caller + " released " + tokens.keySet()
                + (cause != null ? ": " + cause.getClass().getSimpleName() : ""));
    }

    /** Whether {@code cause} is a fault the simulated network made: a refusal or a timeout. */
    static boolean isSimulatedFault(Throwable cause) {
        return cause instanceof SimulatedNetwork.Refused || cause instanceof SimulatedNetwork.TimedOut;
    }
}
