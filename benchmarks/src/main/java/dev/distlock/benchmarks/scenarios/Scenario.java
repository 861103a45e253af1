package dev.distlock.benchmarks.scenarios;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/** The workloads of the comparison, numbered as in the report. */
public enum Scenario {

    /** One thread locks and unlocks its own key: the cost of the lock itself. */
    UNCONTENDED(1, "uncontended, 1 thread", "1 thread, own key", false),

    /** Threads on distinct keys share one client, as the threads of one application would. */
    DISTINCT_KEYS(2, "uncontended, %d threads on distinct keys sharing one client", "%d threads, distinct keys, one client",
            false),

    /**
     * Threads on one key, each with its own client standing for a separate process; the critical section is a
     * non-atomic counter increment.
     */
    ONE_KEY(3, "%d threads on one key, each with its own client (a process each)", "%d clients, one key", true),

    /**
     * Four clients on one key, each holding it 2 ms and resting 2 ms outside it: the lock stays busy only if a
     * waiter is woken promptly; ideal 500 locks/s.
     */
    HAND_OFF(4, "hand-off: 4 clients on one key, hold 2 ms, rest 2 ms outside", "hand-off, 4 clients, 2 ms holds",
            true),

    /**
     * Threads on one key sharing one client, as the threads of one application contending for one lock would: every
     * lock is a hand-off within the process.
     */
    LOCAL_HAND_OFF(5, "%d threads on one key sharing one client (hand-offs within one process)",
            "%d threads, one key, one client", true);

    private static final long HAND_OFF_PAUSE_NANOS = TimeUnit.MILLISECONDS.toNanos(2);

    private final int number;
    private final String title;
    private final String label;
    private final boolean contended;

    Scenario(int number, String title, String label, boolean contended) {
        this.number = number;
        this.title = title;
        this.label = label;
        this.contended = contended;
    }

    /** The scenario's number, 1 to 5. */
    public int number() {
        return number;
    }

    /** Whether the threads compete for one key. */
    public boolean contended() {
        return contended;
    }

    /** The title for the report, with the thread count filled in. */
    public String title(int threads) {
        return String.format(title, threads);
    }

    /** A short title for a chart's axis, with the thread count filled in. */
    public String label(int threads) {
        return String.format(label, threads);
    }

    /**
     * What the threads do.
     *
     * @param threads the thread count of scenarios 2, 3 and 5 (8 by default); scenarios 1 and 4 have fixed counts
     */
    public Workload workload(int threads) {
        return switch (this) {
            case UNCONTENDED -> new Workload(1, false, false, 0, 0);
            case DISTINCT_KEYS -> new Workload(threads, false, false, 0, 0);
            case ONE_KEY -> new Workload(threads, true, true, 0, 0);
            case HAND_OFF -> new Workload(4, true, true, HAND_OFF_PAUSE_NANOS, HAND_OFF_PAUSE_NANOS);
            case LOCAL_HAND_OFF -> new Workload(threads, false, true, 0, 0);
        };
    }

    /**
     * The scenario numbered {@code number}.
     *
     * @throws IllegalArgumentException if there is none
     */
    public static Scenario of(int number) {
        return Arrays.stream(values()).filter(s -> s.number == number).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no scenario " + number + "; they are 1 to " + values().length));
    }
}
