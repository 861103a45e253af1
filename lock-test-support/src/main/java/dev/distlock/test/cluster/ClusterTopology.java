package dev.distlock.test.cluster;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The cluster as one node sees it: a parsed {@code CLUSTER NODES} reply. A snapshot; it does not change.
 *
 * @param nodes the nodes, in the order of the reply
 */
public record ClusterTopology(List<ClusterNodeInfo> nodes) {

    /** Copies the list. */
    public ClusterTopology {
        nodes = List.copyOf(nodes);
    }

    /**
     * Parses a {@code CLUSTER NODES} reply (Redis 6, 7 and Valkey formats).
     *
     * @param reply the reply text
     * @return the topology
     */
    public static ClusterTopology parse(String reply) {
        List<ClusterNodeInfo> nodes = new ArrayList<>();
        for (String line : reply.split("\n")) {
            if (!line.isBlank()) {
                nodes.add(parseLine(line.trim()));
            }
        }
        return new ClusterTopology(nodes);
    }

    /**
     * The node that answered.
     *
     * @return its line
     * @throws IllegalStateException if the reply had no {@code myself} line
     */
    public ClusterNodeInfo myself() {
        return nodes.stream().filter(ClusterNodeInfo::isMyself).findFirst()
                .orElseThrow(() -> new IllegalStateException("no myself in " + this));
    }

    /**
     * A node by id.
     *
     * @param id the node id
     * @return its line, if known
     */
    public Optional<ClusterNodeInfo> node(String id) {
        return nodes.stream().filter(node -> node.id().equals(id)).findFirst();
    }

    /** The primaries that serve slots, by their first slot. */
    public List<ClusterNodeInfo> primaries() {
        return nodes.stream().filter(node -> node.isPrimary() && !node.slots().isEmpty())
                .sorted((a, b) -> Integer.compare(a.slots().get(0).start(), b.slots().get(0).start()))
                .toList();
    }

    /**
     * The replicas of a primary.
     *
     * @param primaryId the primary's node id
     * @return its replicas, in the order of the reply
     */
    public List<ClusterNodeInfo> replicasOf(String primaryId) {
        return nodes.stream().filter(node -> node.isReplica() && primaryId.equals(node.primaryId())).toList();
    }

    /**
     * The primary serving a slot.
     *
     * @param slot a hash slot
     * @return its line, if the slot is assigned
     */
    public Optional<ClusterNodeInfo> primaryForSlot(int slot) {
        return nodes.stream().filter(node -> node.isPrimary() && node.servesSlot(slot)).findFirst();
    }

    /** Slot ranges to the id of the node serving them, sorted: equal in two views when they agree on the slots. */
    public Map<SlotRange, String> slotOwners() {
        Map<SlotRange, String> owners = new TreeMap<>((a, b) -> Integer.compare(a.start(), b.start()));
        for (ClusterNodeInfo node : nodes) {
            if (node.isPrimary()) {
                node.slots().forEach(range -> owners.put(range, node.id()));
            }
        }
        return owners;
    }

    @Override
    public String toString() {
        return nodes.stream().map(node -> node.address() + " " + node.id().substring(0, Math.min(8, node.id().length()))
                        + " " + String.join(",", node.flags())
                        + (node.primaryId() != null ? " of " + node.primaryId().substring(0, 8) : "")
                        + (node.slots().isEmpty() ? "" : " " + node.slots())
                        + (node.migrating().isEmpty() ? "" : " migrating " + node.migrating().keySet())
                        + (node.importing().isEmpty() ? "" : " importing " + node.importing().keySet()))
                .collect(Collectors.joining("\n", "", "\n"));
    }

    private static ClusterNodeInfo parseLine(String line) {
        String[] fields = line.split(" ");
        if (fields.length < 8) {
            throw new IllegalArgumentException("not a CLUSTER NODES line: " + line);
        }
        String address = fields[1].split("[@,]")[0]; // ip:port@cport[,hostname]
        int colon = address.lastIndexOf(':');
        List<SlotRange> slots = new ArrayList<>();
        Map<Integer, String> migrating = new HashMap<>();
        Map<Integer, String> importing = new HashMap<>();
        for (String slot : Arrays.copyOfRange(fields, 8, fields.length)) {
            if (slot.startsWith("[")) {
                String inner = slot.substring(1, slot.length() - 1); // [slot->-id] or [slot-<-id]
                if (inner.contains("->-")) {
                    migrating.put(Integer.parseInt(inner.split("->-")[0]), inner.split("->-")[1]);
                } else {
                    importing.put(Integer.parseInt(inner.split("-<-")[0]), inner.split("-<-")[1]);
                }
            } else {
                String[] ends = slot.split("-");
                slots.add(new SlotRange(Integer.parseInt(ends[0]), Integer.parseInt(ends[ends.length - 1])));
            }
        }
        return new ClusterNodeInfo(fields[0], address.substring(0, colon), Integer.parseInt(address.substring(colon + 1)),
                new HashSet<>(Arrays.asList(fields[2].split(","))), "-".equals(fields[3]) ? null : fields[3],
                "connected".equals(fields[7]), slots, migrating, importing);
    }
}
