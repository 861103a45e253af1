package dev.distlock.redlock;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockBackendException;
import dev.distlock.core.LockLostException;
import dev.distlock.test.CloseAfterEach;
import dev.distlock.test.RedisServer;
import dev.distlock.test.RedisServerExtension;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Redlock over five real redis-servers, with servers killed (SIGKILL), frozen (SIGSTOP) and restarted under
 * held locks. Each registry has its own connections: registries stand for separate processes.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedlockFaultsIT {

    @RegisterExtension
    static final RedisServerExtension redis = RedisServerExtension.servers(5);

    @RegisterExtension
    final CloseAfterEach closeables = new CloseAfterEach();

    @Test
    void twoOfFiveServersDownOrFrozenStillGiveOneHolder() throws Exception {
        servers().get(0).kill();
        servers().get(1).suspend();
        FencedLock mine = registry().obtain("job");
        FencedLock theirs = registry().obtain("job");

        long start = System.nanoTime();
        assertThat(mine.tryLock(Duration.ofSeconds(5))).isTrue();
        long tookMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(theirs.tryLock(Duration.ofMillis(300))).isFalse();
        mine.unlock();
        System.out.println("[reliability] redlock, 1 of 5 killed and 1 frozen (node timeout 100 ms): acquired in "
                + tookMillis + " ms");
        assertThat(theirs.tryLock(Duration.ofSeconds(5))).isTrue();
        theirs.unlock();
    }

    @Test
    void threeOfFiveServersDownFailWithWhatHappenedAndLeaveNothingBehind() throws Exception {
        servers().get(2).kill();
        servers().get(3).kill();
        servers().get(4).kill();
        RedlockLockRegistry registry = registry();
        FencedLock lock = registry.obtain("job");

        assertThatThrownBy(() -> lock.tryLock(Duration.ofMillis(500))).isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'job'").hasMessageContaining("2 of 5 nodes answered, 3 needed");
        assertThat(lock.isHeldByCurrentThread()).isFalse();
        for (RedisServer survivor : servers().subList(0, 2)) {
            assertThat(isFree(survivor.command("GET", registry.keyOf("job")))).as(survivor.toString()).isTrue();
        }
    }

    @Test
    void aHolderThatLostItsMajorityReportsTheLossInsteadOfHolding() throws Exception {
        FencedLock lock = registry(b -> b.maxPollInterval(Duration.ofMillis(100)))
                .obtain("job", Lease.renewed(Duration.ofMillis(900)));
        lock.lock();

        long killed = System.nanoTime();
        servers().get(0).kill();
        servers().get(1).kill();
        servers().get(2).kill();

        awaitUntil(() -> !lock.isHeldByCurrentThread());
        System.out.println("[reliability] redlock, 3 of 5 killed under a renewed 900 ms lease: loss seen after "
                + TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - killed) + " ms");
        assertThat(lock.remainingLease()).isEqualTo(Duration.ZERO);
        assertThatThrownBy(lock::unlock).isInstanceOf(LockLostException.class).hasMessageContaining("'job'");
    }

    /**
     * Three of five servers answer only after 300 ms (CLIENT PAUSE): a 200 ms lease is gone by then, so the
     * acquisition does not count and is released everywhere; a 10 s lease holds, with 300 ms less of it left.
     */
    @Test
    void anAcquisitionCountsOnlyForTheValidityItsMajorityLeft() throws Exception {
        RedlockLockRegistry registry = registry(b -> b.nodeTimeout(Duration.ofSeconds(5)));
        FencedLock shortLease = registry.obtain("short", Lease.fixed(Duration.ofMillis(200)));
        pauseThreeServers(Duration.ofMillis(300));

        assertThat(shortLease.tryLock(Duration.ZERO)).isFalse();
        for (RedisServer server : servers()) {
            assertThat(isFree(server.command("GET", registry.keyOf("short")))).as(server.toString()).isTrue();
        }

        FencedLock longLease = registry.obtain("long", Lease.fixed(Duration.ofSeconds(10)));
        pauseThreeServers(Duration.ofMillis(300));
        assertThat(longLease.tryLock(Duration.ZERO)).isTrue();
        assertThat(longLease.remainingLease()).isPositive().isLessThanOrEqualTo(Duration.ofMillis(9_700));
        longLease.unlock();
    }

    /**
     * Tokens grow across holders even when the servers of the first majority issued tokens far ahead of the
     * others (a clock set forward, or an old fence): the second holder's majority shares a server with the
     * first's, and the first acquisition wrote its token back to every server of its majority.
     */
    @Test
    void tokensGrowAcrossHoldersWhenOneServerIsFarAhead() throws Exception {
        RedlockLockRegistry registry = registry();
        // a freed lock that keeps a token far ahead
        servers().get(0).command("SET", registry.keyOf("job"), "~ 9000000000000000 - someone-long-ago -");
        servers().get(3).kill();
        servers().get(4).kill();
        FencedLock first = registry.obtain("job");
        assertThat(first.tryLock(Duration.ofSeconds(5))).isTrue();
        long firstToken = first.fencingToken();
        first.unlock();
        assertThat(firstToken).as("the largest token of the majority: server 0's").isGreaterThan(9000000000000000L);

        servers().get(0).kill(); // the next majority is 1, 2 (told the first token) and 3, 4 (empty)
        servers().get(3).restart();
        servers().get(4).restart();
        FencedLock second = registry().obtain("job");

        assertThat(second.tryLock(Duration.ofSeconds(10))).isTrue();
        assertThat(second.fencingToken()).isGreaterThan(firstToken);
        second.unlock();
    }

    /**
     * The hazard the README's restart rule is about, shown: a server restarted at once without persistence
     * forgets the lock it granted, and with two servers that never saw the first hold it forms a majority
     * for a second holder while the first still holds.
     */
    @Test
    void aServerRestartedAtOnceWithoutPersistenceCanHelpGrantALockTwice() throws Exception {
        servers().get(3).kill();
        servers().get(4).kill();
        FencedLock first = registry().obtain("job", Lease.fixed(Duration.ofSeconds(60)));
        assertThat(first.tryLock(Duration.ofSeconds(5))).isTrue(); // on servers 0, 1, 2
        servers().get(3).restart();
        servers().get(4).restart();

        servers().get(2).kill();
        servers().get(2).restart(); // at once: it forgot
        FencedLock second = registry().obtain("job");

        assertThat(second.tryLock(Duration.ofSeconds(10))).as("servers 2, 3, 4 are a majority").isTrue();
        assertThat(first.isHeldByCurrentThread()).as("and the first holder still holds").isTrue();
        assertThat(second.fencingToken()).as("the fencing token still tells them apart")
                .isGreaterThan(first.fencingToken());
        second.unlock();
    }

    /** The same crash with the restart rule kept: the server stays down longer than the lease. */
    @Test
    void aServerRestartedOnlyAfterTheLeaseCannotHelpGrantALockTwice() throws Exception {
        Duration lease = Duration.ofSeconds(2);
        servers().get(3).kill();
        servers().get(4).kill();
        FencedLock first = registry().obtain("job", Lease.fixed(lease));
        assertThat(first.tryLock(Duration.ofSeconds(5))).isTrue();
        long firstValidUntil = System.nanoTime() + lease.toNanos();
        servers().get(3).restart();
        servers().get(4).restart();

        servers().get(2).kill();
        servers().get(2).restart(lease.plusMillis(500));
        FencedLock second = registry().obtain("job");

        assertThat(second.tryLock(Duration.ofSeconds(10))).isTrue();
        assertThat(System.nanoTime()).as("the second holder acquired after the first lease ended")
                .isGreaterThan(firstValidUntil);
        assertThat(first.isHeldByCurrentThread()).isFalse();
        second.unlock();
    }

    private static void pauseThreeServers(Duration pause) {
        servers().subList(2, 5).forEach(server -> server.pauseClients(pause));
    }

    private static List<RedisServer> servers() {
        return redis.servers();
    }

    private RedlockLockRegistry registry() {
        return registry(UnaryOperator.identity());
    }

    private RedlockLockRegistry registry(UnaryOperator<RedlockLockRegistry.Builder> settings) {
        RedlockLockRegistry registry = settings.apply(RedlockConnections.registry(servers(), closeables::push))
                .build();
        closeables.push(registry);
        return registry;
    }

    private static void awaitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as("condition within 30 s").isLessThan(deadline);
            Thread.sleep(20); // polling an outside condition; no event to wait on
        }
    }

    /** Whether a lock key's value (from {@code GET}) is no hold: gone, or freed (kept with its last token). */
    private static boolean isFree(Object value) {
        return value == null || ((String) value).startsWith("~ ");
    }
}
