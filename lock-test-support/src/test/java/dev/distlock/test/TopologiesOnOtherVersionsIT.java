package dev.distlock.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.cluster.ClusterNode;
import dev.distlock.test.cluster.HashSlots;
import dev.distlock.test.cluster.RedisCluster;
import dev.distlock.test.sentinel.RedisSentinelSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The cluster and Sentinel harnesses also run on the other server versions (Redis 6.0, Valkey 8.0). */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TopologiesOnOtherVersionsIT {

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {RedisBinary.REDIS_6_0, RedisBinary.VALKEY_8_0})
    void aClusterStartsFailsOverAndMigratesASlot(String name) {
        RedisBinary binary = RedisBinary.named(name);
        try (RedisCluster cluster = RedisCluster.builder().binary(binary).start()) {
            assertThat(cluster.nodes()).allMatch(node -> node.server().binary() == binary);
            ClusterNode primary = cluster.primaryForKey("k");
            primary.command("SET", "k", "v");
            cluster.failover(cluster.replicasOf(primary).get(0));
            ClusterNode owner = cluster.primaryForKey("k");
            assertThat(owner).isNotSameAs(primary);
            ClusterNode target = cluster.primaries().stream().filter(p -> p != owner).findFirst().orElseThrow();
            cluster.migrateSlot(HashSlots.of("k"), target);
            assertThat(target.command("GET", "k")).isEqualTo("v");
        }
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {RedisBinary.REDIS_6_0, RedisBinary.VALKEY_8_0})
    void aSentinelSetStartsAndFailsOver(String name) {
        RedisBinary binary = RedisBinary.named(name);
        try (RedisSentinelSet set = RedisSentinelSet.builder().binary(binary).start()) {
            assertThat(set.processes()).allMatch(server -> server.binary() == binary);
            RedisServer old = set.primary();
            RedisServer promoted = set.failover();
            assertThat(promoted).isNotSameAs(old);
            assertThat(((List<?>) promoted.command("ROLE")).get(0)).isEqualTo("master");
            set.heal();
            assertThat(set.replica()).isSameAs(old);
        }
    }
}
