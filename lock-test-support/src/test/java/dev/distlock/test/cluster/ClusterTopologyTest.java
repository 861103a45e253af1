package dev.distlock.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Parsing {@code CLUSTER NODES} and computing hash slots, without a server. */
class ClusterTopologyTest {

    private static final String A = "a".repeat(40);
    private static final String B = "b".repeat(40);
    private static final String C = "c".repeat(40);
    private static final String D = "d".repeat(40);

    @Test
    void parsesRolesSlotsAndOpenSlots() {
        String reply = A + " 127.0.0.1:30001@40001 myself,master - 0 1700000000000 1 connected 0-5460 [93->-" + B + "]\n"
                + B + " 127.0.0.1:30002@40002,host-b master - 0 1700000000000 2 connected 5461-10922 12000 [93-<-" + A
                + "]\n"
                + C + " 127.0.0.1:30003@40003 master,fail - 1700000000000 1700000000000 3 disconnected\n"
                + D + " 127.0.0.1:30004@40004 slave " + A + " 0 1700000000000 1 connected\n";

        ClusterTopology topology = ClusterTopology.parse(reply);

        assertThat(topology.nodes()).hasSize(4);
        ClusterNodeInfo a = topology.myself();
        assertThat(a.id()).isEqualTo(A);
        assertThat(a.address()).isEqualTo("127.0.0.1:30001");
        assertThat(a.isPrimary()).isTrue();
        assertThat(a.slots()).containsExactly(new SlotRange(0, 5460));
        assertThat(a.migrating()).isEqualTo(Map.of(93, B));
        ClusterNodeInfo b = topology.node(B).orElseThrow();
        assertThat(b.port()).isEqualTo(30002);
        assertThat(b.slots()).containsExactly(new SlotRange(5461, 10922), new SlotRange(12000, 12000));
        assertThat(b.importing()).isEqualTo(Map.of(93, A));
        assertThat(b.slotCount()).isEqualTo(5462 + 1);
        ClusterNodeInfo c = topology.node(C).orElseThrow();
        assertThat(c.isFailing()).isTrue();
        assertThat(c.connected()).isFalse();
        assertThat(topology.replicasOf(A)).extracting(ClusterNodeInfo::id).containsExactly(D);
        assertThat(topology.node(D).orElseThrow().primaryId()).isEqualTo(A);
        assertThat(topology.primaries()).extracting(ClusterNodeInfo::id).containsExactly(A, B); // C serves nothing
        assertThat(topology.primaryForSlot(12000).map(ClusterNodeInfo::id)).contains(B);
        assertThat(topology.primaryForSlot(16000)).isEmpty();
        assertThat(topology.slotOwners().values()).containsExactly(A, B, B);
    }

    @Test
    void hashSlotsMatchTheDocumentedValues() {
        assertThat(HashSlots.of("somekey")).isEqualTo(11058);
        assertThat(HashSlots.of("foo{hash_tag}")).isEqualTo(2515);
        assertThat(HashSlots.of("bar{hash_tag}")).isEqualTo(2515);
        assertThat(HashSlots.of("{}whole")).isNotEqualTo(HashSlots.of("whole"));
        for (String key : List.of("", "a", "lock:{x}:y", "{a}{b}", "ü")) {
            assertThat(HashSlots.of(key)).isBetween(0, RedisCluster.SLOTS - 1);
        }
    }
}
