package dev.distlock.test.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * One slot moved by hand from the primary serving it to another, step by step, so that a test can act between the
 * steps ({@link RedisCluster#beginSlotMigration(int, ClusterNode)}):
 *
 * <pre>{@code
 * SlotMigration migration = cluster.beginSlotMigration(slot, target); // IMPORTING on target, MIGRATING on source
 * migration.moveKeys(1);                                              // MIGRATE one key
 * ... // act while the slot is split between the nodes
 * migration.moveAllKeys();
 * migration.complete();                                               // SETSLOT NODE everywhere, await agreement
 * }</pre>
 *
 * <p>A migration left open (a failing test) is closed by {@link RedisCluster#heal()} ({@code SETSLOT STABLE}).
 */
public final class SlotMigration {

    private static final int BATCH = 100;
    private static final String MIGRATE_TIMEOUT_MILLIS = "5000";

    private final RedisCluster cluster;
    private final int slot;
    private final ClusterNode source;
    private final ClusterNode target;

    SlotMigration(RedisCluster cluster, int slot, ClusterNode source, ClusterNode target) {
        this.cluster = cluster;
        this.slot = slot;
        this.source = source;
        this.target = target;
    }

    /** The slot. */
    public int slot() {
        return slot;
    }

    /** The primary the slot moves away from. */
    public ClusterNode source() {
        return source;
    }

    /** The primary the slot moves to. */
    public ClusterNode target() {
        return target;
    }

    /** {@code CLUSTER SETSLOT <slot> IMPORTING <source>} on the target. */
    void setImporting() {
        target.command("CLUSTER", "SETSLOT", Integer.toString(slot), "IMPORTING", source.id());
    }

    /** {@code CLUSTER SETSLOT <slot> MIGRATING <target>} on the source. */
    void setMigrating() {
        source.command("CLUSTER", "SETSLOT", Integer.toString(slot), "MIGRATING", target.id());
    }

    /**
     * Moves at most {@code max} keys of the slot from the source to the target ({@code CLUSTER GETKEYSINSLOT}, then
     * {@code MIGRATE ... KEYS}, in batches of at most 100). A key that exists on both fails the move ({@code BUSYKEY}).
     *
     * @param max the most keys to move
     * @return how many keys were moved (fewer than {@code max} when the source has no more)
     */
    public int moveKeys(int max) {
        int moved = 0;
        while (moved < max) {
            List<?> keys = (List<?>) source.command("CLUSTER", "GETKEYSINSLOT", Integer.toString(slot),
                    Integer.toString(Math.min(BATCH, max - moved)));
            if (keys.isEmpty()) {
                break;
            }
            List<String> migrate = new ArrayList<>(List.of("MIGRATE", target.host(), Integer.toString(target.port()),
                    "", "0", MIGRATE_TIMEOUT_MILLIS, "KEYS"));
            keys.forEach(key -> migrate.add((String) key));
            source.command(migrate.toArray(String[]::new));
            moved += keys.size();
        }
        return moved;
    }

    /**
     * Moves every key of the slot that is still on the source.
     *
     * @return how many keys were moved
     */
    public int moveAllKeys() {
        return moveKeys(Integer.MAX_VALUE);
    }

    /**
     * Assigns the slot to the target ({@code CLUSTER SETSLOT <slot> NODE <target>} on the target, the source and the
     * other primaries) and waits until the cluster is healthy again with every node agreeing (at most 30 s). Keys still
     * on the source are lost to clients: call {@link #moveAllKeys()} first.
     */
    public void complete() {
        String[] setNode = {"CLUSTER", "SETSLOT", Integer.toString(slot), "NODE", target.id()};
        target.command(setNode);
        source.command(setNode);
        for (ClusterNode primary : cluster.primaries()) {
            if (primary != target && primary != source) {
                primary.command(setNode);
            }
        }
        cluster.awaitHealthy();
    }

    @Override
    public String toString() {
        return "SlotMigration[slot " + slot + ", " + source.address() + " -> " + target.address() + "]";
    }
}
