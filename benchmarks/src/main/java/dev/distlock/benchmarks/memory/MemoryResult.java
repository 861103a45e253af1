package dev.distlock.benchmarks.memory;

import java.util.List;

/**
 * Retained heap while a registry locks and unlocks ever more distinct names.
 *
 * @param registry which registry
 * @param checkpoints names done so far and the live heap then, in order
 * @param topGrowth the classes whose live bytes grew most (by 16 KiB or more) between the second and the last
 *        checkpoint
 * @param seconds how long the whole check took
 */
public record MemoryResult(String registry, List<Checkpoint> checkpoints, List<ClassGrowth> topGrowth,
        double seconds) {

    /** Growth below this many bytes per name is noise (one real entry per name costs well over 40 bytes). */
    public static final double GROWTH_LIMIT_BYTES_PER_NAME = 4;

    /** Heap growth per name between the second checkpoint and the last; the first is the warmed-up start. */
    public double bytesPerName() {
        Checkpoint from = checkpoints.get(Math.min(1, checkpoints.size() - 1));
        Checkpoint to = checkpoints.get(checkpoints.size() - 1);
        long names = to.names() - from.names();
        return names == 0 ? 0 : (to.liveBytes() - from.liveBytes()) / (double) names;
    }

    /** Whether the retained heap stays flat as names are added. */
    public boolean flat() {
        return bytesPerName() < GROWTH_LIMIT_BYTES_PER_NAME;
    }

    /**
     * @param names distinct names locked and unlocked so far
     * @param liveBytes shallow bytes of live objects after a full collection
     */
    public record Checkpoint(long names, long liveBytes) {
    }

    /**
     * @param className the class
     * @param bytes growth of its live bytes
     * @param instances growth of its live instances
     */
    public record ClassGrowth(String className, long bytes, long instances) {
    }
}
