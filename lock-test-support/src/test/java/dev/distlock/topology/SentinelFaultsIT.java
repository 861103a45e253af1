package dev.distlock.topology;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockLostException;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.RedisServer;
import dev.distlock.test.sentinel.RedisSentinelExtension;
import dev.distlock.test.sentinel.RedisSentinelSet;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A real Sentinel set (1 primary, 1 replica, 3 sentinels) failing over while locks are held and waited for,
 * through Lettuce: an acquisition the replica never saw, with replica acknowledgement off (two holders, the
 * fencing token tells them apart) and on (one holder); a Sentinel failover and a killed primary with it on
 * (no two holders).
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class SentinelFaultsIT {

    @RegisterExtension
    static final RedisSentinelExtension redis = new RedisSentinelExtension();

    private static final Duration PATIENCE = Duration.ofSeconds(60);

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    /**
     * Without replica acknowledgement (turned off; the default waits only for the replicas online, and this one is
     * already cut off), an acquisition the replica never received is forgotten by the failover: a second process
     * acquires on the promoted replica while the first still believes it holds. Its fencing token is larger, so the
     * protected resource refuses the first holder's writes from then on.
     */
    @Test
    void anAcquisitionTheReplicaNeverSawMakesTwoHoldersWithoutAcknowledgementButTheSecondTokenIsLarger()
            throws Exception {
        FencedLock first = registry(b -> b.replicaAcknowledgement(0, null)).obtain("job");
        RedisServer replica = isolateReplica();

        assertThat(first.tryLock()).isTrue();
        long firstToken = first.fencingToken();
        RedisServer promoted = killPrimaryAndPromote(replica);
        FencedLock second = registry(b -> b.replicaAcknowledgement(0, null)).obtain("job");

        assertThat(second.tryLock(PATIENCE)).as("the promoted replica never saw the first hold").isTrue();
        assertThat(first.isHeldByCurrentThread()).as("the first holder still believes it holds").isTrue();
        // a resource that keeps the highest token it has seen refuses the first holder's writes from now on
        assertThat(second.fencingToken()).as("the first holder's token is older").isGreaterThan(firstToken);
        assertThat(promoted.command("ROLE").toString()).contains("master");
        second.unlock();
    }

    /** With replica acknowledgement on, the same acquisition does not count: there is only ever one holder. */
    @Test
    void anAcquisitionTheReplicaNeverSawDoesNotCountWithAcknowledgement() throws Exception {
        FencedLock first = registry(b -> b.replicaAcknowledgement(1, Duration.ofMillis(50))).obtain("job");
        RedisServer replica = isolateReplica();

        assertThatThrownBy(() -> first.tryLock(Duration.ofMillis(500))).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("NOREPLICAS").hasMessageContaining("'job'");
        assertThat(first.isHeldByCurrentThread()).isFalse();
        RedisServer oldPrimary = redis.sentinelSet().primary();
        killPrimaryAndPromote(replica);
        // the promoted replica has no replica of its own until the old primary comes back as one: with
        // acknowledgement on, no lock can be taken meanwhile (safety before availability)
        redis.sentinelSet().restartAsReplica(oldPrimary);
        FencedLock second = registry(b -> b.replicaAcknowledgement(1, Duration.ofMillis(50))).obtain("job");

        assertThat(second.tryLock(PATIENCE)).isTrue();
        assertThat(first.isHeldByCurrentThread()).isFalse();
        second.unlock();
    }

    /**
     * {@code SENTINEL FAILOVER} while a lock is held and awaited, with acknowledgement on: the old primary keeps
     * taking writes for a while (until Sentinel reconfigures it), but no replica acknowledges them, so the
     * holder's renewals stop counting and it reports the loss before the waiter acquires on the new primary.
     */
    @Test
    void aSentinelFailoverWhileHeldAndAwaitedMakesNoTwoHoldersWithAcknowledgement() throws Exception {
        assertNoOverlapAcross(RedisSentinelSet::failover, ACKS_1);
    }

    /**
     * The same with the default settings: the replicas online acknowledge. The old primary sees its replica go the
     * moment it is promoted, but keeps counting it for the grace of ten seconds, so its renewals stop counting as
     * with {@code acks=1}.
     */
    @Test
    void aSentinelFailoverWhileHeldAndAwaitedMakesNoTwoHoldersByDefault() throws Exception {
        assertNoOverlapAcross(RedisSentinelSet::failover, UnaryOperator.identity());
    }

    /**
     * The primary killed (SIGKILL) while a lock is held and awaited, with acknowledgement on: no two holders.
     * The killed node comes back as a replica, so that acknowledgements are possible again.
     */
    @Test
    void aKilledPrimaryWhileHeldAndAwaitedMakesNoTwoHoldersWithAcknowledgement() throws Exception {
        assertNoOverlapAcross(set -> {
            RedisServer killed = set.primary();
            set.killPrimary();
            set.restartAsReplica(killed);
        }, ACKS_1);
    }

    private static final UnaryOperator<RedisLockRegistry.Builder> ACKS_1 =
            b -> b.replicaAcknowledgement(1, Duration.ofMillis(50));

    private void assertNoOverlapAcross(java.util.function.Consumer<RedisSentinelSet> fault,
            UnaryOperator<RedisLockRegistry.Builder> acks) throws Exception {
        AtomicReference<Instant> lostAt = new AtomicReference<>();
        LockListener listener = new LockListener() {
            @Override
            public void onLost(LockEvent event) {
                lostAt.compareAndSet(null, Instant.now());
            }
        };
        FencedLock holder = registry(b -> acks.apply(b).listener(listener))
                .obtain("job", Lease.renewed(Duration.ofSeconds(3)));
        FencedLock waiter = registry(b -> acks.apply(b).maxPollInterval(Duration.ofMillis(200))).obtain("job");
        holder.lock();
        long holderToken = holder.fencingToken();
        AtomicReference<Instant> waiterAcquiredAt = new AtomicReference<>();
        CompletableFuture<Long> waiting = CompletableFuture.supplyAsync(() -> {
            long deadline = System.nanoTime() + PATIENCE.toNanos();
            while (System.nanoTime() < deadline) {
                try {
                    if (waiter.tryLock(Duration.ofSeconds(10))) {
                        waiterAcquiredAt.set(Instant.now());
                        long token = waiter.fencingToken();
                        waiter.unlock();
                        return token;
                    }
                } catch (RuntimeException | InterruptedException failingOver) {
                    // a caller sees the failover as an error once its wait is over, then tries again
                }
            }
            return -1L;
        });

        Instant faultAt = Instant.now();
        fault.accept(redis.sentinelSet());
        awaitUntil(() -> lostAt.get() != null || waiting.isDone());
        Instant holderLetGoAt = lostAt.get();
        if (holderLetGoAt == null) {
            // it kept the lock through the failover (the waiter is still waiting): release it now
            holderLetGoAt = Instant.now();
            try {
                holder.unlock();
            } catch (LockLostException lost) {
                throw new AssertionError("the holder believed it held the lock through the failover, but it had been "
                        + "lost without a report: two holders", lost);
            }
        }

        assertThat(waiting.get(PATIENCE.toSeconds() + 30, TimeUnit.SECONDS)).isGreaterThan(holderToken);
        System.out.println("[reliability] sentinel with " + (acks == ACKS_1 ? "acks=1" : "default acks")
                + ", lease 3 s: holder "
                + (lostAt.get() != null ? "reported the loss" : "released") + " after "
                + Duration.between(faultAt, holderLetGoAt).toMillis() + " ms, waiter acquired after "
                + Duration.between(faultAt, waiterAcquiredAt.get()).toMillis() + " ms");
        assertThat(waiterAcquiredAt.get()).as("the waiter acquired only after the holder let go")
                .isAfterOrEqualTo(holderLetGoAt);
    }

    // --- helpers ---

    private RedisLockRegistry registry(UnaryOperator<RedisLockRegistry.Builder> settings) {
        LettuceConnectionFactory factory = TopologyConnections.lettuceSentinel(redis.sentinelSet(), Duration.ofSeconds(1));
        closeables.push(factory::destroy);
        RedisLockRegistry registry = settings.apply(RedisLockRegistry.builder(factory)).build();
        closeables.push(registry);
        return registry;
    }

    /**
     * Cuts the replica off: frozen (SIGSTOP), its replication connection closed by the primary, so what the
     * primary writes from now on never reaches it.
     */
    private static RedisServer isolateReplica() {
        RedisSentinelSet set = redis.sentinelSet();
        RedisServer replica = set.replica();
        replica.suspend();
        set.primary().command("CLIENT", "KILL", "TYPE", "replica");
        awaitUntil(() -> set.primary().command("INFO", "replication").toString().contains("connected_slaves:0"));
        return replica;
    }

    /** Kills the primary (SIGKILL), lets the isolated replica run again and waits until Sentinel promoted it. */
    private static RedisServer killPrimaryAndPromote(RedisServer replica) {
        redis.sentinelSet().primary().kill();
        replica.resume();
        awaitUntil(() -> {
            try {
                return redis.sentinelSet().primary() == replica && replica.command("ROLE").toString().contains("master");
            } catch (RuntimeException notYet) {
                return false;
            }
        });
        return replica;
    }

    private static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within " + PATIENCE).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }
}
