package dev.distlock.samples.inventory.demo;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.Function;

/**
 * The demo's result: both rounds side by side.
 *
 * @param locked the round with the lock
 * @param unlocked the round without it
 */
public record DemoReport(RoundOutcome locked, RoundOutcome unlocked) {

    private static final String NONE = "-";

    /**
     * Whether the round with the lock did what the lock promises: the stock rows agree with the
     * reservations made. A reservation that gave up waiting for the lock made no change, so it does not
     * count against this; the report shows it among the failures.
     */
    public boolean lockedRoundExact() {
        return locked.lostUpdates() == 0;
    }

    /** 0 if the round with the lock was exact, 1 otherwise. */
    public int exitStatus() {
        return lockedRoundExact() ? 0 : 1;
    }

    /** Prints the report. */
    public void print(PrintStream out) {
        out.println();
        out.printf("%-44s %18s %18s%n", "", "with the lock", "without the lock");
        row(out, "reservations attempted", outcome -> count(outcome.attempted()));
        row(out, "reservations that failed", outcome -> count(outcome.failed()));
        row(out, "units reserved (sum of the movements)", outcome -> count(outcome.reserved()));
        row(out, "units taken from stock (the stock rows)", outcome -> count(outcome.taken()));
        row(out, "  lost updates", outcome -> count(outcome.lostUpdates()));
        row(out, "lock acquisitions", lockFigure(outcome -> count(outcome.acquisitions())));
        row(out, "lock timeouts", lockFigure(outcome -> count(outcome.instances().timeouts())));
        row(out, "locks lost", lockFigure(outcome -> count(outcome.instances().lost())));
        row(out, "wait for the lock p50 / p95 / p99 (ms)*", lockFigure(outcome -> millis(outcome.instances().waitP50())
                + " / " + millis(outcome.instances().waitP95()) + " / " + millis(outcome.instances().waitP99())));
        row(out, "lock held mean / max (ms)", lockFigure(outcome -> millis(outcome.instances().heldMeanMillis())
                + " / " + millis(outcome.instances().heldMaxMillis())));
        row(out, "highest fencing token", lockFigure(outcome -> Long.toString(outcome.highestFence())));
        row(out, "scheduled audit: runs / turns skipped", outcome -> count(outcome.instances().auditRuns()) + " / "
                + count(outcome.instances().auditSkips()));
        row(out, "time (s)", outcome -> String.format(Locale.US, "%.1f", outcome.elapsed().toMillis() / 1000.0));
        out.println();
        out.println("* each instance computes its own percentiles; shown is the highest of them, which is at least");
        out.println("  the percentile of all waits together.");
        out.println();
        out.println(verdict());
    }

    private String verdict() {
        String withLock = lockedRoundExact()
                ? String.format(Locale.US, "With the lock the stock is exact: %,d reservations, %,d units taken.",
                        locked.reserved(), locked.taken()) + failures()
                : String.format(Locale.US, "With the lock the stock is NOT exact: %,d reservations, %,d units taken."
                        + "%nSomething is wrong: please report it.", locked.reserved(), locked.taken());
        String withoutLock = unlocked.lostUpdates() > 0
                ? String.format(Locale.US, "Without it %,d updates were lost: two reservations read the same stock "
                        + "and the second write%nundid the first, so %,d units were sold that the stock still shows.",
                        unlocked.lostUpdates(), unlocked.lostUpdates())
                : String.format("Without it no update happened to be lost this time; run again, or with more%n"
                        + "-Ddemo.operations, to see it happen.");
        return withLock + System.lineSeparator() + withoutLock;
    }

    /** Why some reservations of the round with the lock were not made, if some were not. */
    private String failures() {
        if (locked.failed() == 0) {
            return "";
        }
        return String.format(Locale.US, "%n%,d reservations failed and changed nothing: %,d of them gave up "
                + "waiting for the lock (a busy machine%ncan stall a holder); the first failure of each instance "
                + "is shown above.", locked.failed(), locked.instances().timeouts());
    }

    private void row(PrintStream out, String title, Function<RoundOutcome, String> figure) {
        out.printf("%-44s %18s %18s%n", title, figure.apply(locked), figure.apply(unlocked));
    }

    /** A figure of the reservation lock, which the round without the lock never takes. */
    private static Function<RoundOutcome, String> lockFigure(Function<RoundOutcome, String> figure) {
        return outcome -> outcome.locked() ? figure.apply(outcome) : NONE;
    }

    private static String count(long count) {
        return String.format(Locale.US, "%,d", count);
    }

    private static String millis(double millis) {
        return Double.isNaN(millis) ? NONE : String.format(Locale.US, millis < 10 ? "%.2f" : "%.0f", millis);
    }
}
