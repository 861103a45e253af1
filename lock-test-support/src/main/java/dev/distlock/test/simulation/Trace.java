package dev.distlock.test.simulation;

import java.util.ArrayList;
import java.util.List;

/** What happened in a simulation, line by line with its virtual time: the same seed writes the same trace. */
final class Trace {

    private final VirtualScheduler scheduler;
    private final List<String> lines = new ArrayList<>();

    Trace(VirtualScheduler scheduler) {
        this.scheduler = scheduler;
    }

    void add(String event) {
        long micros = (scheduler.nanoTime() - VirtualScheduler.START_NANOS) / 1000;
        lines.add(String.format("%10.3f ms  %s", micros / 1000.0, event));
    }

    List<String> lines() {
        return lines;
    }

    /** The last {@code count} lines, one per line. */
    String tail(int count) {
        return String.join("\n", lines.subList(Math.max(0, lines.size() - count), lines.size()));
    }
}
