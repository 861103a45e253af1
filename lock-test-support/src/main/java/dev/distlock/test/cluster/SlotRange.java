package dev.distlock.test.cluster;

/**
 * A range of hash slots, both ends included, e.g. {@code 0-5460}.
 *
 * @param start first slot
 * @param end last slot
 */
public record SlotRange(int start, int end) {

    /** Validates the range. */
    public SlotRange {
        if (start < 0 || end >= RedisCluster.SLOTS || start > end) {
            throw new IllegalArgumentException("not a slot range: " + start + "-" + end);
        }
    }

    /**
     * Whether the range holds the slot.
     *
     * @param slot a hash slot
     * @return true if {@code start <= slot <= end}
     */
    public boolean contains(int slot) {
        return start <= slot && slot <= end;
    }

    /** The number of slots in the range. */
    public int size() {
        return end - start + 1;
    }

    @Override
    public String toString() {
        return start == end ? Integer.toString(start) : start + "-" + end;
    }
}
