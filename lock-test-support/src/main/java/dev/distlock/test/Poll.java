package dev.distlock.test;

import java.time.Duration;
import java.util.function.Supplier;

/**
 * Bounded polling of a server state, for the harness's "wait until ..." operations: short pauses between checks, a
 * deadline, and a failure that says what was still wrong.
 */
public final class Poll {

    private Poll() {
    }

    /**
     * Checks {@code problem} every 25 ms until it returns {@code null} (the condition holds) or {@code timeout} ends. A
     * check that throws (e.g. a server still starting) counts as not holding yet.
     *
     * @param what the awaited condition, for the failure message, e.g. {@code "cluster healthy"}
     * @param timeout the bound
     * @param problem returns {@code null} when the condition holds, else what is still wrong
     * @throws IllegalStateException when the time is up, with the last problem
     */
    public static void until(String what, Duration timeout, Supplier<String> problem) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String last;
            RuntimeException error = null;
            try {
                last = problem.get();
            } catch (RuntimeException e) {
                error = e;
                last = e.toString();
            }
            if (last == null) {
                return;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(what + ": not reached within " + timeout.toMillis() + " ms; last: "
                        + last, error);
            }
            Processes.pollPause();
        }
    }
}
