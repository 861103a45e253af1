package dev.distlock.benchmarks.cost;

import java.util.Arrays;
import java.util.List;
import java.util.function.ToDoubleFunction;

/**
 * The Java-side cost of one uncontended lock+unlock in one case, over several runs of the same length.
 *
 * @param what the case: registry, calls, names
 * @param operations lock+unlock pairs per run
 * @param runs each run's cost per lock+unlock
 */
public record CostResult(String what, int operations, List<Run> runs) {

    /** The case of the Redis registry's blocking lock() and unlock(), on which the allocation budget is judged. */
    public static final String REDIS_LOCK = "Redis: lock() + unlock(), one name";
    /** The floor contender's two Lettuce calls: what a lock on Lettuce allocates at least. */
    public static final String FLOOR = "floor (Lettuce: SET NX PX + compare-and-delete EVALSHA), one name";

    public CostResult {
        runs = List.copyOf(runs);
    }

    /**
     * One run, per lock+unlock.
     *
     * @param wallNanos elapsed time
     * @param callerCpuNanos CPU time of the calling thread
     * @param callerBytes bytes allocated by the calling thread
     * @param jvmCpuNanos CPU time of all Java threads (the caller, the registry's and the client's threads; not GC
     *        or compiler threads)
     * @param jvmBytes bytes allocated by all Java threads
     */
    public record Run(double wallNanos, double callerCpuNanos, double callerBytes, double jvmCpuNanos,
            double jvmBytes) {
    }

    /** The median over the runs of one figure. */
    public double median(ToDoubleFunction<Run> figure) {
        double[] values = sorted(figure);
        int middle = values.length / 2;
        return values.length % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
    }

    public double min(ToDoubleFunction<Run> figure) {
        return sorted(figure)[0];
    }

    public double max(ToDoubleFunction<Run> figure) {
        double[] values = sorted(figure);
        return values[values.length - 1];
    }

    private double[] sorted(ToDoubleFunction<Run> figure) {
        double[] values = runs.stream().mapToDouble(figure).toArray();
        Arrays.sort(values);
        return values;
    }
}
