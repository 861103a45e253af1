package dev.distlock.test.sentinel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A real Sentinel set (primary, replica, three sentinels): its shape, failovers and healing. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class RedisSentinelIT {

    @RegisterExtension
    static final RedisSentinelExtension redis = new RedisSentinelExtension();

    private static List<RedisServer> processesAtStart;

    @Test
    @Order(1)
    void startsAPrimaryAReplicaAndThreeSentinelsThatAgree() {
        RedisSentinelSet set = redis.sentinelSet();
        processesAtStart = set.processes();
        RedisServer primary = set.dataNodes().get(0);
        assertThat(set.primary()).isSameAs(primary);
        assertThat(set.replica()).isSameAs(set.dataNodes().get(1));
        assertThat(set.masterName()).isEqualTo("mymaster");
        for (RedisServer sentinel : set.sentinels()) {
            assertThat(set.primaryAddress(sentinel)).isEqualTo("127.0.0.1:" + primary.port());
            assertThat((String) sentinel.command("SENTINEL", "CKQUORUM", "mymaster")).startsWith("OK 3 usable");
        }
        assertThat(set.sentinelAddresses()).hasSize(3).allMatch(address -> address.startsWith("127.0.0.1:"));
        assertThat(set.sentinelUri()).isEqualTo("redis-sentinel://" + String.join(",", set.sentinelAddresses())
                + "#mymaster");
        assertThat(primary.writeAndWait(1, Duration.ofSeconds(5), "SET", "k", "v")).isEqualTo(1L);
        assertThat(set.replica().command("GET", "k")).isEqualTo("v");
        assertThatThrownBy(() -> set.replica().command("SET", "k", "w")).hasMessageStartingWith("READONLY");
    }

    @Test
    @Order(2)
    void sentinelFailoverPromotesTheReplicaAndAllSentinelsAgree() {
        RedisSentinelSet set = redis.sentinelSet();
        RedisServer old = set.primary();
        RedisServer replica = set.replica();

        long start = System.nanoTime();
        RedisServer promoted = set.failover();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(promoted).isSameAs(replica);
        assertThat(set.primary()).isSameAs(promoted);
        assertThat(((List<?>) promoted.command("ROLE")).get(0)).isEqualTo("master");
        for (RedisServer sentinel : set.sentinels()) {
            assertThat(set.primaryAddress(sentinel)).isEqualTo("127.0.0.1:" + promoted.port());
        }
        assertThat(set.replica()).isSameAs(old);
        System.out.println("SENTINEL FAILOVER agreed after " + millis + " ms");
    }

    @Test
    @Order(3)
    void afterAFailoverTheNextTestFindsTheOldPrimaryReplicating() {
        RedisSentinelSet set = redis.sentinelSet();
        RedisServer primary = set.primary();
        RedisServer replica = set.replica();
        assertThat(primary).isSameAs(set.dataNodes().get(1)); // roles are not put back
        List<?> role = (List<?>) replica.command("ROLE");
        assertThat(role.get(0)).isEqualTo("slave");
        assertThat(role.get(2)).isEqualTo((long) primary.port());
    }

    @Test
    @Order(4)
    void aKilledPrimaryIsFailedOverAndRestartsAsAReplica() {
        RedisSentinelSet set = redis.sentinelSet();
        RedisServer killed = set.primary();
        assertThat(killed.writeAndWait(1, Duration.ofSeconds(5), "SET", "k", "v")).isEqualTo(1L);

        long start = System.nanoTime();
        RedisServer next = set.killPrimary();
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(killed.isRunning()).isFalse();
        assertThat(next).isNotSameAs(killed);
        assertThat(set.primary()).isSameAs(next);
        assertThat(next.command("GET", "k")).isEqualTo("v");
        System.out.println("kill -9 of the primary failed over in " + millis + " ms");

        set.restartAsReplica(killed);

        List<?> role = (List<?>) killed.command("ROLE");
        assertThat(role.get(0)).isEqualTo("slave");
        assertThat(role.get(2)).isEqualTo((long) next.port());
        assertThat(killed.command("GET", "k")).isEqualTo("v"); // synced from the new primary
        assertThatThrownBy(() -> set.restartAsReplica(next)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    @Order(5)
    void damageEverything() {
        RedisSentinelSet set = redis.sentinelSet();
        set.primary().command("SET", "left", "over");
        set.sentinels().get(2).kill();
        set.replica().suspend();
        set.primary().kill(); // no waiting for a failover
    }

    @Test
    @Order(6)
    void theNextTestGetsAHealedEmptySet() {
        RedisSentinelSet set = redis.sentinelSet();
        assertThat(set.processes()).isEqualTo(processesAtStart);
        set.awaitHealthy(); // returns at once: the extension healed it
        for (RedisServer server : set.processes()) {
            assertThat(server.isRunning()).isTrue();
            assertThat(server.isSuspended()).isFalse();
        }
        for (RedisServer node : set.dataNodes()) {
            assertThat(node.command("DBSIZE")).isEqualTo(0L);
        }
    }
}
