package dev.distlock.core.runtime;

import java.util.random.RandomGenerator;

/**
 * The time, the randomness and the threads the lock engine runs on. A registry reads time, draws its jitter and
 * schedules its work only through its runtime: {@link #system()} by default; a virtual one in tests and
 * simulations (given to a registry's builder), where time moves only when the test moves it and every scheduled
 * task runs in an order the test chooses.
 */
public interface LockRuntime {

    /** The monotonic time in nanoseconds, as {@link System#nanoTime()}: only differences mean anything. */
    long nanoTime();

    /** The wall-clock time in epoch milliseconds, as {@link System#currentTimeMillis()}: shown to people only. */
    long currentTimeMillis();

    /** The randomness of the engine's jitter (poll and retry pauses); never used for tokens or secrets. */
    RandomGenerator random();

    /** Makes the executors of one registry; the registry closes them when it closes. */
    EngineExecutors newExecutors();

    /**
     * How a blocking caller's thread waits between the steps of its call: {@link CallerWaits#MONITOR} unless a
     * simulation runs the callers' threads its own way.
     */
    default CallerWaits callerWaits() {
        return CallerWaits.MONITOR;
    }

    /** The system's clock and random numbers, and daemon threads of each registry's own. */
    static LockRuntime system() {
        return SystemRuntime.INSTANCE;
    }
}
