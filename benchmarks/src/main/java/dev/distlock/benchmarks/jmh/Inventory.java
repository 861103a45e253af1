package dev.distlock.benchmarks.jmh;

import dev.distlock.annotation.DistributedLock;

/**
 * The work every annotation benchmark does, so that only the way the lock is taken differs. As a Spring bean
 * its method runs under {@code @DistributedLock}; as a plain object it is the work alone.
 */
public class Inventory {

    /** Reserves one item; trivial, so the lock's cost dominates. */
    @DistributedLock(name = AnnotationOverheadBenchmark.KEY_EXPRESSION, timeout = "1s")
    public long reserve(long id) {
        return id + 1;
    }
}
