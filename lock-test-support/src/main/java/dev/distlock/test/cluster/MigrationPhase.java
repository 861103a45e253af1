package dev.distlock.test.cluster;

/** The phases of a hand-made slot migration ({@link RedisCluster#migrateSlot(int, ClusterNode, java.util.function.Consumer)}). */
public enum MigrationPhase {

    /** The target has {@code CLUSTER SETSLOT <slot> IMPORTING <source>}; the source still serves the slot normally. */
    IMPORTING,

    /**
     * The source has {@code CLUSTER SETSLOT <slot> MIGRATING <target>} too, no key moved yet: commands on existing keys
     * run on the source, those on missing keys get {@code -ASK} to the target; multi-key commands over keys split
     * between the two get {@code -TRYAGAIN}.
     */
    MIGRATING,

    /** Every key of the slot has been moved with {@code MIGRATE}; the slot is still open on both nodes. */
    KEYS_MOVED,

    /** {@code CLUSTER SETSLOT <slot> NODE <target>} is done and every node agrees the target serves the slot. */
    COMPLETED
}
