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
    void aFixedNumberOrNoneIsKnownWithoutAskingTheServer() {
        // no connection factory: asking the server would fail
        assertThat(new ReplicaCount(ReplicaAcks.of(2, Duration.ofMillis(50)), null).required()).isEqualTo(2);
        assertThat(new ReplicaCount(ReplicaAcks.NONE, null).required()).isZero();
        assertThat(new ReplicaCount(ReplicaAcks.NONE, null).trusted()).isTrue();
        assertThat(new ReplicaCount(ReplicaAcks.of(1, Duration.ofMillis(50)), null).trusted()).isFalse();
    }
}
