package dev.distlock.benchmarks.contenders;

/**
 * One lock library under test, bound to the benchmark's redis-server. Each {@link #newClient()} stands for
 * a separate process: its own connections, threads and local lock state.
 */
public interface Contender {

    /** The short name used in options and reports, e.g. {@code distlock} or {@code si-spin}. */
    String name();

    /** What runs, with the library version and the settings that matter, for the report. */
    String description();

    /** A new client with its own connections; the caller closes it. */
    LockClient newClient();
}
