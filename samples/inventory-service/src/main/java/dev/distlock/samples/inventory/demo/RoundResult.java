package dev.distlock.samples.inventory.demo;

import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.ToDoubleFunction;
import java.util.function.ToLongFunction;

/**
 * What one instance (or, merged, all of them) did in one round: its own counts and what its Micrometer
 * meters recorded for the reservation lock and the scheduled audit. Times are in milliseconds; a
 * percentile is {@code NaN} when nothing was recorded.
 *
 * @param attempted reservations tried
 * @param failed reservations that threw
 * @param acquired acquisitions of the reservation lock ({@code distlock.acquire}, outcome acquired)
 * @param timeouts acquire calls of the reservation lock that timed out
 * @param lost holds found lost ({@code distlock.lost}, every lock)
 * @param waitP50 median wait for the reservation lock
 * @param waitP95 95th percentile of that wait
 * @param waitP99 99th percentile of that wait
 * @param held holds of the reservation lock that ended ({@code distlock.held})
 * @param heldTotalMillis their total time held
 * @param heldMaxMillis the longest of them (Micrometer's recent maximum)
 * @param auditRuns runs of the scheduled audit on this instance
 * @param auditSkips turns of the audit skipped because another instance was its leader
 * @param highestFence the highest fencing token a reservation was written with
 */
record RoundResult(long attempted, long failed, long acquired, long timeouts, long lost, double waitP50,
        double waitP95, double waitP99, long held, double heldTotalMillis, double heldMaxMillis, long auditRuns,
        long auditSkips, long highestFence) {

    private static final RecordComponent[] COMPONENTS = RoundResult.class.getRecordComponents();

    /** The figures of all instances: counts and totals add up, maxima are the largest. */
    static RoundResult merge(List<RoundResult> results) {
        return new RoundResult(sum(results, RoundResult::attempted), sum(results, RoundResult::failed),
                sum(results, RoundResult::acquired), sum(results, RoundResult::timeouts),
                sum(results, RoundResult::lost),
                // a percentile of the merged samples is at most the largest of the instances' percentiles
                max(results, RoundResult::waitP50), max(results, RoundResult::waitP95),
                max(results, RoundResult::waitP99), sum(results, RoundResult::held),
                results.stream().mapToDouble(RoundResult::heldTotalMillis).sum(),
                max(results, RoundResult::heldMaxMillis), sum(results, RoundResult::auditRuns),
                sum(results, RoundResult::auditSkips),
                results.stream().mapToLong(RoundResult::highestFence).max().orElse(0));
    }

    /**
     * What the meters recorded since {@code earlier} (a reading of the same instance's meters): counts and
     * totals are differences; percentiles and maxima, which cannot be subtracted, are kept as they are.
     */
    RoundResult since(RoundResult earlier) {
        return new RoundResult(attempted, failed, acquired - earlier.acquired, timeouts - earlier.timeouts,
                lost - earlier.lost, waitP50, waitP95, waitP99, held - earlier.held,
                heldTotalMillis - earlier.heldTotalMillis, heldMaxMillis, auditRuns - earlier.auditRuns,
                auditSkips - earlier.auditSkips, highestFence);
    }

    /** These figures with the workload's own counts. */
    RoundResult withWorkload(long attempted, long failed, long highestFence) {
        return new RoundResult(attempted, failed, acquired, timeouts, lost, waitP50, waitP95, waitP99, held,
                heldTotalMillis, heldMaxMillis, auditRuns, auditSkips, highestFence);
    }

    /** Mean time a reservation lock was held, {@code NaN} if none was. */
    double heldMeanMillis() {
        return held == 0 ? Double.NaN : heldTotalMillis / held;
    }

    /** One line of {@code name=value} pairs, one per component. */
    String toLine() {
        StringJoiner line = new StringJoiner(" ");
        for (RecordComponent component : COMPONENTS) {
            Object value = valueOf(component);
            line.add(component.getName() + "="
                    + (value instanceof Double number ? String.format(Locale.ROOT, "%.3f", number) : value));
        }
        return line.toString();
    }

    /** Reads what {@link #toLine()} wrote. */
    static RoundResult parse(String line) {
        Map<String, String> values = new HashMap<>();
        for (String pair : line.trim().split(" ")) {
            int equals = pair.indexOf('=');
            values.put(pair.substring(0, equals), pair.substring(equals + 1));
        }
        Object[] arguments = new Object[COMPONENTS.length];
        Class<?>[] types = new Class<?>[COMPONENTS.length];
        for (int i = 0; i < COMPONENTS.length; i++) {
            String value = values.get(COMPONENTS[i].getName());
            if (value == null) {
                throw new IllegalArgumentException("no " + COMPONENTS[i].getName() + " in the result line: " + line);
            }
            types[i] = COMPONENTS[i].getType();
            arguments[i] = types[i] == long.class ? (Object) Long.parseLong(value) : (Object) Double.parseDouble(value);
        }
        try {
            return RoundResult.class.getDeclaredConstructor(types).newInstance(arguments);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot create a RoundResult", ex);
        }
    }

    private Object valueOf(RecordComponent component) {
        try {
            return component.getAccessor().invoke(this);
        } catch (ReflectiveOperationException ex) {
            throw new IllegalStateException("cannot read " + component.getName(), ex);
        }
    }

    private static long sum(List<RoundResult> results, ToLongFunction<RoundResult> field) {
        return results.stream().mapToLong(field).sum();
    }

    private static double max(List<RoundResult> results, ToDoubleFunction<RoundResult> field) {
        return results.stream().mapToDouble(field).filter(value -> !Double.isNaN(value)).max().orElse(Double.NaN);
    }
}
