package dev.distlock.test.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.test.RedisInfo;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A real 6-node Redis Cluster: its shape, and the faults and migrations tests can drive on it. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisClusterIT {

    @RegisterExtension
    static final RedisClusterExtension redis = new RedisClusterExtension();

    private static List<String> portsAtStart;

    @Test
    @Order(1)
    void startsThreePrimariesWithOneReplicaEachCoveringAllSlots() {
        RedisCluster cluster = redis.cluster();
        portsAtStart = cluster.seedAddresses();
        assertThat(cluster.nodes()).hasSize(6);
        assertThat(cluster.seedUris()).hasSize(6).allMatch(uri -> uri.startsWith("redis://127.0.0.1:"));
        assertThat(new HashSet<>(cluster.seedAddresses())).hasSize(6);
        ClusterTopology topology = cluster.topology();
        assertThat(topology.primaries()).hasSize(3);
        assertThat(topology.primaries().stream().mapToInt(ClusterNodeInfo::slotCount).sum())
                .isEqualTo(RedisCluster.SLOTS);
        for (ClusterNode primary : cluster.primaries()) {
            assertThat(primary.isPrimary()).isTrue();
            List<ClusterNode> replicas = cluster.replicasOf(primary);
            assertThat(replicas).hasSize(1);
            assertThat(replicas.get(0).isPrimary()).isFalse();
        }
        for (ClusterNode node : cluster.nodes()) {
            assertThat(RedisInfo.field(node.command("CLUSTER", "INFO"), "cluster_state")).isEqualTo("ok");
        }
    }

    @Test
    @Order(2)
    void findsTheNodeServingAKey() {
        RedisCluster cluster = redis.cluster();
        ClusterNode any = cluster.nodes().get(0);
        for (String key : List.of("lock:a", "lock:b", "{user1000}.following", "锁", "x{}y")) {
            int slot = HashSlots.of(key);
            assertThat(any.command("CLUSTER", "KEYSLOT", key)).isEqualTo((long) slot);
            ClusterNode owner = cluster.primaryForKey(key);
            assertThat(owner.command("SET", key, "v")).isEqualTo("OK");
            ClusterNode other = cluster.primaries().stream().filter(p -> p != owner).findFirst().orElseThrow();
            assertThatThrownBy(() -> other.command("GET", key))
                    .hasMessageStartingWith("MOVED " + slot + " " + owner.address());
        }
    }

    @Test
    @Order(3)
    void aKilledPrimaryIsFailedOverToItsReplicaAndComesBackAsAReplica() {
        RedisCluster cluster = redis.cluster();
        String key = "lock:failover";
        ClusterNode primary = cluster.primaryForKey(key);
        // earlier tests may have left this primary with more than one replica: every one must have the key
        List<ClusterNode> replicas = cluster.replicasOf(primary);
        assertThat(primary.server().writeAndWait(replicas.size(), Duration.ofSeconds(5), "SET", key, "v"))
                .isEqualTo(replicas.size());

        primary.kill();
        long start = System.nanoTime();
        ClusterTopology after = cluster.awaitFailover(primary);
        long failoverMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        ClusterNode replica = cluster.node(after.primaryForSlot(HashSlots.of(key)).orElseThrow().id());
        assertThat(replicas).contains(replica);
        assertThat(replica.isPrimary()).isTrue();
        assertThat(replica.command("GET", key)).isEqualTo("v");
        System.out.println("kill -9 of a primary failed over in " + failoverMillis + " ms");

        primary.restart();
        cluster.awaitHealthy();
        assertThat(primary.isPrimary()).isFalse();
        assertThat(cluster.replicasOf(replica)).contains(primary);
    }

    @Test
    @Order(4)
    void clusterFailoverSwapsAReplicaWithItsPrimary() {
        RedisCluster cluster = redis.cluster();
        ClusterNode primary = cluster.primaries().get(1);
        ClusterNode replica = cluster.replicasOf(primary).get(0);

        ClusterTopology after = cluster.failover(replica);

        assertThat(replica.isPrimary()).isTrue();
        assertThat(primary.isPrimary()).isFalse();
        assertThat(after.replicasOf(replica.id())).extracting(ClusterNodeInfo::id).containsExactly(primary.id());
        assertThatThrownBy(() -> cluster.failover(replica)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Order(5)
    void aSlotMigratesByHandWithAHookBetweenThePhases() {
        RedisCluster cluster = redis.cluster();
        List<String> keys = List.of("{mig}a", "{mig}b", "{mig}c");
        int slot = HashSlots.of(keys.get(0));
        ClusterNode source = cluster.primaryForSlot(slot);
        ClusterNode target = cluster.primaries().stream().filter(p -> p != source).findFirst().orElseThrow();
        keys.forEach(key -> source.command("SET", key, "v"));
        List<MigrationPhase> seen = new ArrayList<>();

        cluster.migrateSlot(slot, target, phase -> {
            seen.add(phase);
            switch (phase) {
                case IMPORTING -> assertThat(source.command("GET", "{mig}a")).isEqualTo("v");
                case MIGRATING -> {
                    assertThat(source.command("GET", "{mig}a")).isEqualTo("v"); // still there
                    assertThatThrownBy(() -> source.command("GET", "{mig}missing"))
                            .hasMessageStartingWith("ASK " + slot + " " + target.address());
                }
                case KEYS_MOVED -> {
                    assertThatThrownBy(() -> source.command("GET", "{mig}a")).hasMessageStartingWith("ASK");
                    assertThatThrownBy(() -> target.command("GET", "{mig}a")).hasMessageStartingWith("MOVED");
                }
                case COMPLETED -> assertThat(cluster.primaryForSlot(slot)).isSameAs(target);
            }
        });

        assertThat(seen).containsExactly(MigrationPhase.values());
        for (ClusterNode node : cluster.nodes()) {
            assertThat(node.topology().primaryForSlot(slot).orElseThrow().id()).isEqualTo(target.id());
        }
        for (String key : keys) {
            assertThat(target.command("GET", key)).isEqualTo("v");
        }
        assertThatThrownBy(() -> source.command("GET", "{mig}a")).hasMessageStartingWith("MOVED " + slot);
    }

    @Test
    @Order(6)
    void aMigrationCanStopHalfWayWithTheSlotsKeysSplitBetweenTwoNodes() {
        RedisCluster cluster = redis.cluster();
        int slot = HashSlots.of("{half}a");
        ClusterNode source = cluster.primaryForSlot(slot);
        ClusterNode target = cluster.primaries().stream().filter(p -> p != source).findFirst().orElseThrow();
        source.command("SET", "{half}a", "1");
        source.command("SET", "{half}b", "2");

        SlotMigration migration = cluster.beginSlotMigration(slot, target);
        assertThat(migration.moveKeys(1)).isEqualTo(1);

        // a multi-key command over keys now on two nodes cannot run anywhere: what a lock script meets during a reshard
        assertThatThrownBy(() -> source.command("MGET", "{half}a", "{half}b")).hasMessageStartingWith("TRYAGAIN");
        assertThat(migration.moveAllKeys()).isEqualTo(1);
        assertThat(migration.moveAllKeys()).isZero();
        migration.complete();
        assertThat(cluster.primaryForSlot(slot)).isSameAs(target);
        assertThat(target.command("MGET", "{half}a", "{half}b")).isEqualTo(List.of("1", "2"));
    }

    @Test
    @Order(7)
    void reshardMovesSlotsWithRedisCli() {
        RedisCluster cluster = redis.cluster();
        ClusterNode from = cluster.primaries().get(0);
        ClusterNode to = cluster.primaries().get(2);
        int fromBefore = cluster.topology().node(from.id()).orElseThrow().slotCount();
        int toBefore = cluster.topology().node(to.id()).orElseThrow().slotCount();
        int slot = cluster.topology().node(from.id()).orElseThrow().slots().get(0).start();
        String key = keyInSlotRangeStartingAt(slot);
        from.command("SET", key, "moved");

        cluster.reshard(from, to, 100);

        ClusterTopology after = cluster.topology();
        assertThat(after.node(from.id()).orElseThrow().slotCount()).isEqualTo(fromBefore - 100);
        assertThat(after.node(to.id()).orElseThrow().slotCount()).isEqualTo(toBefore + 100);
        assertThat(cluster.primaryForKey(key).command("GET", key)).isEqualTo("moved");
    }

    @Test
    @Order(8)
    void damageEverything() {
        RedisCluster cluster = redis.cluster();
        ClusterNode primary = cluster.primaries().get(0);
        primary.command("SET", "{left}over", "x");
        int slot = HashSlots.of("{open}");
        ClusterNode target = cluster.primaries().stream().filter(p -> p != cluster.primaryForSlot(slot))
                .findFirst().orElseThrow();
        cluster.beginSlotMigration(slot, target); // left open
        cluster.replicasOf(cluster.primaries().get(1)).get(0).kill();
        cluster.primaries().get(2).server().suspend();
        primary.kill(); // no waiting for the failover
    }

    @Test
    @Order(9)
    void theNextTestGetsAHealedEmptyCluster() {
        RedisCluster cluster = redis.cluster();
        assertThat(cluster.seedAddresses()).isEqualTo(portsAtStart);
        cluster.awaitHealthy(); // returns at once: the extension healed it
        Set<String> ids = new HashSet<>();
        for (ClusterNode node : cluster.nodes()) {
            assertThat(node.isRunning()).isTrue();
            assertThat(node.server().isSuspended()).isFalse();
            assertThat(node.command("DBSIZE")).isEqualTo(0L);
            ClusterNodeInfo myself = node.topology().myself();
            assertThat(myself.migrating()).isEmpty();
            assertThat(myself.importing()).isEmpty();
            ids.add(node.id());
        }
        assertThat(ids).hasSize(6);
        assertThat(cluster.primaries()).hasSize(3);
    }

    /** A key whose slot is {@code slot} (found by trying names). */
    private static String keyInSlotRangeStartingAt(int slot) {
        for (int i = 0; ; i++) {
            if (HashSlots.of("k" + i) == slot) {
                return "k" + i;
            }
        }
    }
}
