package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.LockStore;
import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The Lua scripts one call at a time, as a client that resends commands after a reconnect, a key of the wrong
 * type, a lock value that is no lock's or a lease that ran out with waiters queued leave them: what only Redis shows
 * (key layout, TTLs, commands); the protocol every store holds to is {@code LockStoreContract}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class RedisScriptsTests {

    private static final String LOCK = "distlock:{job}";
    private static final long LEASE = 30_000;
    private static final long TIMEOUT = 1_000;
    private static final long RETENTION = 3_600_000;

    private LettuceConnectionFactory factory;
    private RedisLockStore store;

    /** The server of the test class (each subclass registers its own extension). */
    abstract RedisServer server();

    @BeforeEach
    void connect() {
        factory = RedisConnections.lettuce(server(), Duration.ofSeconds(5));
        store = new RedisLockStore(factory, new RedisKeys("distlock"),
                new GrantInbox(new RedisMessageListenerContainer(), false, "distlock:granted:test", () -> true), RETENTION);
    }

    @AfterEach
    void disconnect() {
        factory.destroy();
    }

    @Test
    void aReleaseRunAgainReportsTheReleaseItMadeUntilTwoLaterReleases() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);

        assertThat(store.release("job", "T")).isTrue();
        assertThat(store.release("job", "T")).as("run again").isTrue();
        assertThat(store.isLocked("job")).isFalse();

        store.tryAcquire("job", "other", LEASE, false, TIMEOUT);
        assertThat(store.release("job", "T")).as("run again after another owner took the lock").isTrue();
        assertThat((String) server().command("GET", LOCK)).as("the other owner's hold is untouched")
                .startsWith("other ");
        store.release("job", "other");
        assertThat(store.release("job", "T")).as("one release later").isTrue();
        store.tryAcquire("job", "third", LEASE, false, TIMEOUT);
        store.release("job", "third");
        assertThat(store.release("job", "T")).as("two releases later").isFalse();
    }

    @Test
    void aFreedLockKeepsItsLastTokenForTheFenceRetentionWhateverItsLease() {
        long year = 365L * 24 * 3_600_000;
        long token = store.tryAcquire("job", "T", year, false, TIMEOUT).fencingToken();

        assertThat(store.release("job", "T")).isTrue();

        assertThat((String) server().command("GET", LOCK)).startsWith("~ " + token + " ");
        assertThat((Long) server().command("PTTL", LOCK)).isPositive().isLessThanOrEqualTo(RETENTION);
        assertThat(store.inspect("job").ownerToken()).as("free").isNull();
    }

    @Test
    void aRenewalNeverShortensTheLeaseAnExtendSet() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        assertThat(store.extend("job", "T", 120_000)).isTrue();

        assertThat(store.renew("job", "T", LEASE)).as("held").isTrue();
        assertThat((Long) server().command("PTTL", LOCK)).isGreaterThan(100_000);

        assertThat(store.extend("job", "T", 1_000)).as("an extend sets it exactly").isTrue();
        assertThat((Long) server().command("PTTL", LOCK)).isLessThanOrEqualTo(1_000);
        assertThat(store.renew("job", "T", LEASE)).isTrue();
        assertThat((Long) server().command("PTTL", LOCK)).as("a renewal lengthens it").isGreaterThan(20_000);
        assertThat(store.renew("job", "other", LEASE)).as("not the holder").isFalse();
    }

    @Test
    void fencingTokensStrictlyIncreaseUpTo2To53Minus1AndThenTheAcquireFailsClearly() {
        long max = (1L << 53) - 1;
        server().command("SET", LOCK, "~ " + (max - 1) + " - someone -");

        AcquireResult last = store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        assertThat(last.fencingToken()).isEqualTo(max);
        assertThat(store.release("job", "T")).isTrue();

        assertThatThrownBy(() -> store.tryAcquire("job", "U", LEASE, false, TIMEOUT))
                .hasStackTraceContaining("fencing tokens of " + LOCK + " are exhausted")
                .hasStackTraceContaining(Long.toString(max));
        assertThat(store.isLocked("job")).as("no hold left behind").isFalse();
        assertThat((String) server().command("GET", LOCK)).startsWith("~ " + max + " - T ");
    }

    @Test
    void aReleaseAfterTheKeyWasDeletedFromOutsideIsNotTakenForARepeatedRelease() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        server().command("DEL", LOCK);

        assertThat(store.release("job", "T")).isFalse();
    }

    @Test
    void aHandingOverReleaseRunTwiceReportsTheReleaseItMade() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        assertThat(store.tryAcquire("job", "W", LEASE, true, TIMEOUT).acquired()).isFalse();

        assertThat(store.release("job", "T")).isTrue();
        assertThat((String) server().command("GET", LOCK)).startsWith("W ").endsWith(" q T -");
        assertThat(store.release("job", "T")).as("run again").isTrue();

        // the waiter's poll finds the lock handed to it and confirms it with its full lease
        AcquireResult handed = store.tryAcquire("job", "W", LEASE, true, TIMEOUT);
        assertThat(handed.acquired()).isTrue();
        assertThat((Long) server().command("PTTL", LOCK)).isGreaterThan(TIMEOUT);
        assertThat(store.release("job", "W")).isTrue();
        store.tryAcquire("job", "X", LEASE, false, TIMEOUT);
        assertThat(store.release("job", "T")).as("the trace is of the owner it handed over to").isTrue();
        assertThat(store.release("job", "X")).isTrue();
        assertThat(store.release("job", "T")).as("three owners later").isFalse();
    }

    @Test
    void aHandOffSetsOnlyTheWaitersClaimLeaseAndTellsItsChannel() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        store.tryAcquire("job", "W", LEASE, true, TIMEOUT);
        server().command("CONFIG", "RESETSTAT");

        store.release("job", "T");

        assertThat((Long) server().command("PTTL", LOCK)).isPositive().isLessThanOrEqualTo(TIMEOUT);
        assertThat(RedisProbes.commandCalls(server(), "publish")).isOne();
    }

    @Test
    void aBusyTryReportsTheHoldersRemainingLease() {
        store.tryAcquire("job", "T", 20_000, false, TIMEOUT);

        AcquireResult busy = store.tryAcquire("job", "W", LEASE, false, TIMEOUT);

        assertThat(busy.acquired()).isFalse();
        assertThat(busy.holderLeaseMillis()).isBetween(15_000L, 20_000L);
        assertThat(busy.serverTimeMillis()).isCloseTo(serverMillis(), org.assertj.core.data.Offset.offset(5_000L));
    }

    @Test
    void aLeaseThatRanOutGoesToTheFirstLiveWaiterAndANewcomerFindsItBusy() {
        store.tryAcquire("job", "T", 200, false, TIMEOUT);
        store.tryAcquire("job", "W", LEASE, true, 60_000);
        awaitKeyGone(LOCK);

        AcquireResult newcomer = store.tryAcquire("job", "N", LEASE, false, TIMEOUT);

        assertThat(newcomer.acquired()).isFalse();
        assertThat((String) server().command("GET", LOCK)).startsWith("W ");
        assertThat(store.tryAcquire("job", "W", LEASE, true, 60_000).acquired()).isTrue();
    }

    @Test
    void aQueueLivesAsLongAsItsLongestLivedEntry() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        store.tryAcquire("job", "slow", LEASE, true, 20_000);
        store.tryAcquire("job", "quick", LEASE, true, 1_000);

        assertThat((Long) server().command("PTTL", LOCK + ":queue")).isGreaterThan(10_000);
        assertThat((Long) server().command("PTTL", LOCK + ":waiters")).isGreaterThan(10_000);
    }

    @Test
    void aLockValueThatIsNoLocksIsNobodysToTakeOrRelease() {
        for (String foreign : List.of("-5", "not a number", "~ 99999999999999999999999 - a -", "")) {
            server().command("SET", LOCK, foreign);

            AcquireResult result = store.tryAcquire("job", "T", LEASE, true, TIMEOUT);

            assertThat(result.acquired()).as(foreign).isFalse();
            assertThat(result.holderLeaseMillis()).as(foreign).isEqualTo(LockStore.NEVER_EXPIRES);
            assertThat(store.release("job", "T")).as(foreign).isFalse();
            assertThat(store.isLocked("job")).as(foreign).isTrue();
            assertThat((String) server().command("GET", LOCK)).as("left as it was").isEqualTo(foreign);
            store.leaveQueue("job", "T", LEASE);
        }
    }

    @Test
    void aTokenAfterTheLastOneWasLostIsTheServerClock() {
        long before = serverMillis() * 1000;
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        server().command("DEL", LOCK);

        AcquireResult result = store.tryAcquire("job", "U", LEASE, false, TIMEOUT);

        assertThat(result.fencingToken()).isGreaterThanOrEqualTo(before).isLessThan(before + 60_000_000L);
    }

    @Test
    void fencingTokensNeverGoBackWhenTheLastOneIsAheadOfTheClock() {
        long ahead = serverMillis() * 1000 + 3_600_000_000L; // issued by a server whose clock was an hour ahead
        server().command("SET", LOCK, "~ " + ahead + " - someone -");

        AcquireResult result = store.tryAcquire("job", "T", LEASE, false, TIMEOUT);

        assertThat(result.fencingToken()).isEqualTo(ahead + 1);
    }

    @Test
    void aRaisedFenceBindsTheHoldersTokenAndEveryLaterOneOnlyWhileItHolds() {
        long issued = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        long chosen = issued + 1_000_000_000L; // larger, as another Redlock node's token may be

        assertThat(store.raiseFence("job", "other", chosen + 5)).as("not the holder").isFalse();
        assertThat(store.raiseFence("job", "T", chosen)).isTrue();
        assertThat(store.raiseFence("job", "T", issued)).as("never lowered").isTrue();
        assertThat(store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken()).as("a repeated try")
                .isEqualTo(chosen);
        assertThat(store.inspect("job").fencingToken()).isEqualTo(chosen);
        store.release("job", "T");
        assertThat(store.tryAcquire("job", "next", LEASE, false, TIMEOUT).fencingToken()).isEqualTo(chosen + 1);
    }

    @Test
    void aLockKeyOfAnotherTypeIsReportedWithWhatItHoldsAndIsNobodysHold() {
        server().command("HSET", LOCK, "field", "value");

        assertThatThrownBy(() -> store.tryAcquire("job", "T", LEASE, false, TIMEOUT))
                .hasStackTraceContaining("WRONGTYPE").hasStackTraceContaining("holds a hash");
        assertThat(store.extend("job", "T", LEASE)).isFalse();
        assertThat(store.release("job", "T")).isFalse();
        assertThat(store.remainingLeaseMillis("job", "T")).isNegative();
    }

    @Test
    void theHotPathRunsAsOneFunctionLibraryWhereTheServerHasFunctionsElseAsScripts() throws Exception {
        AsyncLockStore async = store.async();
        server().command("CONFIG", "RESETSTAT");

        assertThat(async.tryAcquire("job", "T", LEASE, true, TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS)
                .acquired()).isTrue();
        assertThat(async.release("job", "T").toCompletableFuture().get(10, TimeUnit.SECONDS)).isTrue();

        if (!hasFunctions()) {
            assertThat(RedisProbes.commandCalls(server(), "evalsha")).isGreaterThanOrEqualTo(2);
            assertThat(RedisProbes.commandCalls(server(), "fcall")).isZero();
            return;
        }
        assertThat(RedisProbes.commandCalls(server(), "fcall")).isGreaterThanOrEqualTo(2);
        assertThat(RedisProbes.commandCalls(server(), "evalsha")).isZero();
        // a server that forgot the library (restarted without persistence) gets it again from the next call
        server().command("FUNCTION", "FLUSH");
        assertThat(async.tryAcquire("job", "U", LEASE, true, TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS)
                .acquired()).isTrue();
        assertThat(server().command("FUNCTION", "LIST").toString()).contains(LockScripts.LIBRARY.name());
    }

    private boolean hasFunctions() {
        String info = (String) server().command("INFO", "server");
        return info.contains("redis_version:7") || info.contains("redis_version:8");
    }

    private long serverMillis() {
        List<?> time = (List<?>) server().command("TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    private void awaitKeyGone(String key) {
        RedisProbes.awaitUntil(() -> Long.valueOf(0).equals(server().command("EXISTS", key)));
    }
}
