package dev.distlock.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.DetachedLock;
import dev.distlock.core.LockBackendException;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.Poll;
import dev.distlock.test.RedisInfo;
import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Replica acknowledgement by default: a registry built with no setting waits for the replicas its primary has online
 * ({@code WAIT} after every acquisition and renewal, blocking and non-blocking callers alike), for none on a server
 * without replicas (no {@code WAIT} at all), and stops waiting for a replica that stopped answering once it has
 * been silent for two seconds and the ten seconds' grace after that have passed.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ConnectedReplicaAcknowledgementIT {

    private static final int ACQUISITIONS = 20;

    private static PrimaryAndReplica servers;
    private static RedisServer primary;
    private static RedisServer replica;
    private static RedisServer alone;

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @BeforeAll
    static void startServers() {
        servers = PrimaryAndReplica.start();
        primary = servers.primary;
        replica = servers.replica;
        alone = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        servers.close();
        RedisServer.killAll(List.of(alone));
    }

    @Test
    void everyAcquisitionOnAPrimaryWithAReplicaWaitsForItAndTheReplicaHasTheHoldWhenLockReturns() throws Exception {
        RedisLockRegistry registry = registry(primary);
        FencedLock lock = registry.obtain("job");
        long waitsBefore = waits(primary);

        for (int i = 0; i < ACQUISITIONS; i++) {
            lock.lock();
            try {
                assertThat(replica.command("GET", registry.keyOf("job")))
                        .as("the replica's copy of hold %d, as lock() returns", i)
                        .isEqualTo(primary.command("GET", registry.keyOf("job")));
            } finally {
                lock.unlock();
            }
        }

        assertThat(waits(primary) - waitsBefore).as("WAITs for %d acquisitions", ACQUISITIONS)
                .isGreaterThanOrEqualTo(ACQUISITIONS);
    }

    @Test
    void aNonBlockingAcquisitionWaitsForTheReplicaToo() throws Exception {
        RedisLockRegistry registry = registry(primary);
        registry.obtain("warm-up").lock(); // the first reading of the replicas online
        long waitsBefore = waits(primary);

        DetachedLock held = registry.obtain("async").lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        try {
            assertThat(waits(primary) - waitsBefore).as("WAITs for one non-blocking acquisition").isPositive();
            assertThat(replica.command("GET", registry.keyOf("async"))).as("the replica's copy").isNotNull();
        } finally {
            held.unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aServerWithoutReplicasIsNeverAskedToWait() throws Exception {
        RedisLockRegistry registry = registry(alone);
        FencedLock lock = registry.obtain("job");

        for (int i = 0; i < ACQUISITIONS; i++) {
            lock.lock();
            lock.unlock();
        }
        registry.obtain("async").lockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS)
                .unlockAsync().toCompletableFuture().get(10, TimeUnit.SECONDS);

        assertThat(waits(alone)).as("WAITs on a server without replicas").isZero();
    }

    /**
     * A frozen replica (SIGSTOP: its link stays up) still counts while its last acknowledgement is recent, and for
     * ten seconds more, so an acquisition fails (and is undone); after that it no longer counts and locking goes on
     * without it; back, it is waited for again.
     */
    @Test
    void aReplicaThatStoppedAnsweringIsWaitedForOnlyUntilItsGraceHasPassed() throws Exception {
        RedisLockRegistry registry = registry(primary);
        FencedLock lock = registry.obtain("job");
        lock.lock();
        lock.unlock();

        replica.suspend();
        try {
            assertThatThrownBy(() -> lock.tryLock(Duration.ofMillis(300))).isInstanceOf(LockBackendException.class)
                    .hasMessageContaining("NOREPLICAS").hasMessageContaining("replicas online");
            assertThat(PrimaryAndReplica.isFree(primary.command("GET", registry.keyOf("job")))).as("the unacknowledged hold, undone")
                    .isTrue();

            long frozenAt = System.nanoTime();
            assertThat(lock.tryLock(Duration.ofSeconds(40))).as("locked once the silent replica stopped counting")
                    .isTrue();
            assertThat(Duration.ofNanos(System.nanoTime() - frozenAt)).as("how long locking failed")
                    .isGreaterThanOrEqualTo(Duration.ofSeconds(10));
            lock.unlock();
        } finally {
            replica.resume();
        }
        servers.awaitReplicaOnline();

        Poll.until("acquisitions acknowledged again", Duration.ofSeconds(15), () -> {
            long waitsBefore = waits(primary);
            lock.lock();
            lock.unlock();
            return waits(primary) > waitsBefore ? null : "no WAIT yet";
        });
    }

    private RedisLockRegistry registry(RedisServer server) {
        return PrimaryAndReplica.registry(closeables, server, UnaryOperator.identity());
    }

    /** How many {@code WAIT}s the server has run. */
    private static long waits(RedisServer server) {
        String calls = RedisInfo.parse(server.command("INFO", "commandstats")).get("cmdstat_wait");
        return calls == null ? 0 : Long.parseLong(calls.substring(calls.indexOf("calls=") + 6, calls.indexOf(',')));
    }
}
