package dev.distlock.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.RedisInfo;
import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replica acknowledgement on a primary with one replica, through a Lettuce factory without a pool (Boot's
 * default): the script and {@code WAIT} run on connections kept open between calls, never the shared one; a
 * kept connection the server dropped, or whose acknowledgement came up short, is replaced, not reused.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReplicaAcknowledgementIT {

    private static final Duration ACK_TIMEOUT = Duration.ofMillis(200);
    private static final int ACQUISITIONS = 100;

    private static PrimaryAndReplica servers;
    private static RedisServer primary;
    private static RedisServer replica;

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @BeforeAll
    static void startPrimaryWithReplica() {
        servers = PrimaryAndReplica.start();
        primary = servers.primary;
        replica = servers.replica;
    }

    @AfterAll
    static void stop() {
        servers.close();
    }

    @Test
    void acknowledgedAcquisitionsReuseTheirConnectionsInsteadOfOpeningOneEach() throws Exception {
        RedisLockRegistry registry = registry();
        FencedLock lock = registry.obtain("job");
        lock.lock(); // connects the shared and the hand-off connections
        lock.unlock();
        long connectionsBefore = connectionsReceived();

        for (int i = 0; i < ACQUISITIONS; i++) {
            assertThat(lock.tryLock(Duration.ofSeconds(5))).isTrue();
            lock.unlock();
        }

        assertThat(connectionsReceived() - connectionsBefore)
                .as("connections opened for %d acknowledged acquisitions", ACQUISITIONS).isLessThanOrEqualTo(2);
        assertThat(replica.command("GET", registry.keyOf("job"))).as("the replica saw the holds")
                .isNotNull();
    }

    @Test
    void aKeptConnectionTheServerDroppedIsReplacedAndTheAcquisitionStillSucceeds() throws Exception {
        FencedLock lock = registry().obtain("job");
        lock.lock();
        lock.unlock();

        primary.command("CLIENT", "KILL", "TYPE", "normal", "SKIPME", "yes");

        assertThat(lock.tryLock(Duration.ofSeconds(10))).as("acquired after the server dropped every client").isTrue();
        assertThat(lock.isHeldByCurrentThread()).isTrue();
        lock.unlock();
        assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
        lock.unlock();
    }

    /**
     * A connection whose {@code WAIT} came up short may lead to a primary that was demoted (Sentinel reconnects
     * a new connection to the primary of the moment): it is closed, not kept.
     */
    @Test
    void aConnectionWhoseAcknowledgementCameUpShortIsNotReused() throws Exception {
        RedisLockRegistry registry = registry();
        FencedLock lock = registry.obtain("job");
        lock.lock();
        lock.unlock();

        replica.suspend();
        try {
            assertThatThrownBy(() -> lock.tryLock(Duration.ofMillis(300))).isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("NOREPLICAS");
            assertThat(PrimaryAndReplica.isFree(primary.command("GET", registry.keyOf("job")))).as("the unacknowledged hold, undone")
                    .isTrue();
        } finally {
            replica.resume();
        }
        servers.awaitReplicaOnline();
        long connectionsBefore = connectionsReceived();

        assertThat(lock.tryLock(Duration.ofSeconds(10))).isTrue();
        lock.unlock();
        assertThat(connectionsReceived() - connectionsBefore).as("connections opened after the shortfall")
                .isPositive();
    }

    private RedisLockRegistry registry() {
        return PrimaryAndReplica.registry(closeables, primary, b -> b.replicaAcknowledgement(1, ACK_TIMEOUT));
    }

    private static long connectionsReceived() {
        return Long.parseLong(RedisInfo.field(primary.command("INFO", "stats"), "total_connections_received"));
    }
}
