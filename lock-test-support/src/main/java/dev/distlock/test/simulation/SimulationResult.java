package dev.distlock.test.simulation;

import java.util.List;

/**
 * What a simulated run found.
 *
 * @param seed the seed that replays it
 * @param violations the broken promises, empty if none
 * @param holds how many holds callers got
 * @param steps how many tasks ran
 * @param trace every event, in virtual time
 */
public record SimulationResult(long seed, List<String> violations, long holds, long steps, List<String> trace) {

    /** Whether every promise held. */
    public boolean passed() {
        return violations.isEmpty();
    }

    /** The seed, the violations and the end of the trace: what a failing test prints. */
    public String report(int traceLines) {
        StringBuilder out = new StringBuilder("seed ").append(seed).append(": ").append(violations.size())
                .append(" violation(s), ").append(holds).append(" holds, ").append(steps).append(" steps\n");
        violations.stream().limit(20).forEach(violation -> out.append("  ").append(violation).append('\n'));
        out.append("trace (last ").append(traceLines).append(" lines):\n");
        trace.subList(Math.max(0, trace.size() - traceLines), trace.size())
                .forEach(line -> out.append(line).append('\n'));
        return out.toString();
    }
}
