package dev.distlock.test.cluster;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One line of {@code CLUSTER NODES}: a node as one member of the cluster sees it.
 *
 * @param id the node id (40 hex characters), stable across restarts of the node
 * @param host its address
 * @param port its client port
 * @param flags e.g. {@code myself}, {@code master}, {@code slave}, {@code fail?}, {@code fail}
 * @param primaryId the id of the primary it replicates, or {@code null} for a primary
 * @param connected whether the link to it is connected
 * @param slots the slot ranges it serves (empty for a replica)
 * @param migrating slots it migrates away, to the id of the node importing them (known for {@code myself} only)
 * @param importing slots it imports, to the id of the node migrating them (known for {@code myself} only)
 */
public record ClusterNodeInfo(String id, String host, int port, Set<String> flags, String primaryId,
        boolean connected, List<SlotRange> slots, Map<Integer, String> migrating, Map<Integer, String> importing) {

    /** Copies the collections. */
    public ClusterNodeInfo {
        flags = Set.copyOf(flags);
        slots = List.copyOf(slots);
        migrating = Map.copyOf(migrating);
        importing = Map.copyOf(importing);
    }

    /** Whether it is a primary ({@code master} flag). */
    public boolean isPrimary() {
        return flags.contains("master");
    }

    /** Whether it is a replica ({@code slave} flag). */
    public boolean isReplica() {
        return flags.contains("slave");
    }

    /** Whether the viewer suspects or agreed it failed ({@code fail?} or {@code fail}). */
    public boolean isFailing() {
        return flags.contains("fail") || flags.contains("fail?");
    }

    /** Whether this line describes the node that answered. */
    public boolean isMyself() {
        return flags.contains("myself");
    }

    /**
     * Whether it serves the slot.
     *
     * @param slot a hash slot
     * @return true if one of its ranges holds it
     */
    public boolean servesSlot(int slot) {
        return slots.stream().anyMatch(range -> range.contains(slot));
    }

    /** The number of slots it serves. */
    public int slotCount() {
        return slots.stream().mapToInt(SlotRange::size).sum();
    }

    /** Its address as {@code host:port}. */
    public String address() {
        return host + ":" + port;
    }
}
