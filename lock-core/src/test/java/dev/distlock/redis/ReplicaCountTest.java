package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ReplicaCountTest {

    @Test
    void countsTheReplicasWhoseLinkIsOnlineAndThatAcknowledgedWithinTwoSeconds() {
        Properties replication = new Properties();
        replication.setProperty("role", "master");
        replication.setProperty("connected_slaves", "5");
        replication.setProperty("slave0", "ip=127.0.0.1,port=7001,state=online,offset=2290,lag=0");
        replication.setProperty("slave1", "ip=127.0.0.1,port=7002,state=online,offset=2290,lag=2");
        replication.setProperty("slave2", "ip=127.0.0.1,port=7003,state=online,offset=2100,lag=3");
        replication.setProperty("slave3", "ip=127.0.0.1,port=7004,state=wait_bgsave,offset=0,lag=0");
        replication.setProperty("slave4", "ip=127.0.0.1,port=7005,state=send_bulk,offset=0,lag=1");
        replication.setProperty("master_repl_offset", "2290");

        assertThat(ReplicaCount.online(replication)).isEqualTo(2);
    }

    @Test
    void aPrimaryWithoutReplicasHasNone() {
        Properties replication = new Properties();
        replication.setProperty("role", "master");
        replication.setProperty("connected_slaves", "0");

        assertThat(ReplicaCount.online(replication)).isZero();
    }

    @Test
    void aReplicaThatWentAwayCountsForTheRestOfTheWindow() {
        ReplicaCount.Readings readings = new ReplicaCount.Readings(10);

        assertThat(readings.add(0, 2)).isEqualTo(2);
        assertThat(readings.add(5, 0)).as("promoted away: still counted").isEqualTo(2);
        assertThat(readings.add(10, 1)).isEqualTo(2);
        assertThat(readings.add(11, 0)).as("the reading of 2 is past the window").isEqualTo(1);
        assertThat(readings.add(21, 0)).isZero();
        assertThat(readings.add(22, 3)).isEqualTo(3);
    }

    @Test
    void aFixedNumberOrNoneIsKnownWithoutAskingTheServer() {
        // no connection factory: asking the server would fail
        assertThat(new ReplicaCount(ReplicaAcks.of(2, Duration.ofMillis(50)), null).required()).isEqualTo(2);
        assertThat(new ReplicaCount(ReplicaAcks.NONE, null).required()).isZero();
        assertThat(new ReplicaCount(ReplicaAcks.NONE, null).trusted()).isTrue();
        assertThat(new ReplicaCount(ReplicaAcks.of(1, Duration.ofMillis(50)), null).trusted()).isFalse();
    }
}
