package dev.distlock.benchmarks.renewals;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the watchdog sent Redis while many renewed holds stayed held.
 *
 * @param holds renewed holds taken, each on a name of its own
 * @param lease their lease; the watchdog renews every third of it (one period)
 * @param periods renewal periods measured
 * @param scriptsPerPeriod top-level script calls ({@code FCALL}, {@code EVALSHA}, {@code EVAL}) per period
 * @param commandsPerPeriod every command per period by name, the commands run inside the scripts included, most
 *        frequent first
 * @param heldAtEnd holds still held ({@code isHeld()}) when the measurement ended, before they were released
 * @param seconds how long the whole check took, the acquisitions and releases included
 */
public record RenewalResult(int holds, Duration lease, int periods, double scriptsPerPeriod,
        Map<String, Double> commandsPerPeriod, int heldAtEnd, double seconds) {

    /** The budget: 10,000 renewed holds cost at most this many renewal scripts per period on one server. */
    public static final double MAX_SCRIPTS_PER_PERIOD = 100;

    public RenewalResult {
        // keeps the order: most frequent first
        commandsPerPeriod = Collections.unmodifiableMap(new LinkedHashMap<>(commandsPerPeriod));
    }

    /** Whether no hold was lost while it was renewed. */
    public boolean allHeld() {
        return heldAtEnd == holds;
    }

    /** Within the budget, with every hold still held. */
    public boolean withinBudget() {
        return scriptsPerPeriod <= MAX_SCRIPTS_PER_PERIOD && allHeld();
    }
}
