package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.AsyncLockStore;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.spi.PermitClaims;
import dev.distlock.test.RedisServer;
import java.nio.charset.StandardCharsets;
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
    void aReleaseRunAgainFindsItsReleaseByItsFencingTokenWithinTheKeysLife() {
        long fence = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        assertThat((String) server().command("GET", LOCK)).as("the first hold of the key's life is its origin")
                .isEqualTo("T " + fence + " - " + fence + " -");

        assertThat(store.release("job", "T", fence)).isTrue();
        assertThat((String) server().command("GET", LOCK)).isEqualTo("~ " + fence + " - " + fence + " -");
        assertThat(store.release("job", "T", fence)).as("run again").isTrue();
        for (int i = 0; i < 4; i++) {
            long owner = store.tryAcquire("job", "other" + i, LEASE, false, TIMEOUT).fencingToken();
            assertThat(store.release("job", "other" + i, owner)).isTrue();
        }
        long holder = store.tryAcquire("job", "holder", LEASE, false, TIMEOUT).fencingToken();
        assertThat(store.release("job", "T", fence)).as("run again five owners later").isTrue();
        assertThat((String) server().command("GET", LOCK)).as("the holder's hold is untouched")
                .isEqualTo("holder " + holder + " - " + fence + " -");

        server().command("DEL", LOCK);
        long after = store.tryAcquire("job", "new", LEASE, false, TIMEOUT).fencingToken();
        assertThat((String) server().command("GET", LOCK)).as("a new life").isEqualTo("new " + after + " - " + after
                + " -");
        assertThat(store.release("job", "T", fence)).as("run again after the key was lost").isFalse();
        assertThat(store.release("job", "holder", holder)).as("lost with the key").isFalse();
        assertThat(store.release("job", "T", after + 1)).as("a token the key never issued").isFalse();
    }

    /**
     * Values written by the scripts before the origin ({@code '<owner> <token> <mark> <released> <released before>'},
     * met during a rolling upgrade): read as if their life began with their own token, or with the number in their
     * fifth word (where an old release moves the origin to), and written in the new form by the next script.
     */
    @Test
    void valuesOfTheScriptsBeforeTheOriginAreReadAsLivesBeginningWithTheirOwnToken() {
        long now = serverMillis() * 1000;
        server().command("SET", LOCK, "~ " + now + " - oldA oldB");
        long fence = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        assertThat((String) server().command("GET", LOCK)).isEqualTo("T " + fence + " - " + now + " -");
        assertThat(store.release("job", "T", fence)).isTrue();
        assertThat(store.release("job", "T", now)).as("the freed hold's token").isTrue();
        assertThat(store.release("job", "T", now - 1)).as("before the value's life").isFalse();

        long origin = now - 10_000_000;
        server().command("SET", LOCK, "old " + now + " - oldA " + origin, "PX", Long.toString(LEASE));
        assertThat(store.release("job", "T", origin + 1)).as("an origin an old release moved along").isTrue();
        assertThat(store.release("job", "T", origin - 1)).isFalse();
        assertThat(store.tryAcquire("job", "W", LEASE, true, TIMEOUT).acquired()).isFalse();
        assertThat((String) server().command("GET", LOCK)).as("marked, in the new form")
                .isEqualTo("old " + now + " q " + origin + " -");

        server().command("SET", LOCK, "old " + now + " q oldA oldB", "PX", Long.toString(LEASE));
        assertThat(store.release("job", "old", now)).as("an old value's own hold").isTrue();
        assertThat((String) server().command("GET", LOCK)).as("handed to the waiter")
                .startsWith("W ").endsWith(" q " + now + " -");
    }

    @Test
    void aFreedLockKeepsItsLastTokenForTheFenceRetentionWhateverItsLease() {
        long year = 365L * 24 * 3_600_000;
        long token = store.tryAcquire("job", "T", year, false, TIMEOUT).fencingToken();

        assertThat(store.release("job", "T", token)).isTrue();

        assertThat((String) server().command("GET", LOCK)).startsWith("~ " + token + " ");
        assertThat((Long) server().command("PTTL", LOCK)).isPositive().isLessThanOrEqualTo(RETENTION);
        assertThat(store.capabilities().reads().orElseThrow().inspect("job").ownerToken()).as("free").isNull();
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
        assertThat(store.release("job", "T", max)).isTrue();

        assertThatThrownBy(() -> store.tryAcquire("job", "U", LEASE, false, TIMEOUT))
                .hasStackTraceContaining("fencing tokens of " + LOCK + " are exhausted")
                .hasStackTraceContaining(Long.toString(max));
        assertThat(store.capabilities().reads().orElseThrow().isLocked("job")).as("no hold left behind").isFalse();
        assertThat((String) server().command("GET", LOCK)).isEqualTo("~ " + max + " - " + (max - 1) + " -");
    }

    @Test
    void aReleaseAfterTheKeyWasDeletedFromOutsideIsNotTakenForARepeatedRelease() {
        long fence = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        server().command("DEL", LOCK);

        assertThat(store.release("job", "T", fence)).isFalse();
    }

    @Test
    void aHandingOverReleaseRunTwiceReportsTheReleaseItMade() {
        long fence = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        assertThat(store.tryAcquire("job", "W", LEASE, true, TIMEOUT).acquired()).isFalse();

        assertThat(store.release("job", "T", fence)).isTrue();
        assertThat((String) server().command("GET", LOCK)).startsWith("W ").endsWith(" q " + fence + " -");
        assertThat(store.release("job", "T", fence)).as("run again").isTrue();

        // the waiter's poll finds the lock handed to it and confirms it with its full lease
        AcquireResult handed = store.tryAcquire("job", "W", LEASE, true, TIMEOUT);
        assertThat(handed.acquired()).isTrue();
        assertThat((Long) server().command("PTTL", LOCK)).isGreaterThan(TIMEOUT);
        assertThat(store.release("job", "W", handed.fencingToken())).isTrue();
        long next = store.tryAcquire("job", "X", LEASE, false, TIMEOUT).fencingToken();
        assertThat(store.release("job", "T", fence)).as("two owners later").isTrue();
        assertThat(store.release("job", "X", next)).isTrue();
        assertThat(store.release("job", "T", fence)).as("three owners later").isTrue();
    }

    @Test
    void aHandOffSetsOnlyTheWaitersClaimLeaseAndTellsItsChannel() {
        long fence = store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken();
        store.tryAcquire("job", "W", LEASE, true, TIMEOUT);
        server().command("CONFIG", "RESETSTAT");

        store.release("job", "T", fence);

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
            assertThat(store.release("job", "T", 1)).as(foreign).isFalse();
            assertThat(store.capabilities().reads().orElseThrow().isLocked("job")).as(foreign).isTrue();
            assertThat((String) server().command("GET", LOCK)).as("left as it was").isEqualTo(foreign);
            store.leaveQueue("job", "T", LEASE);
        }
    }

    /**
     * A forced release keeps the value's form and its fencing tokens ahead of the clock: the freed value starts a new
     * life with an unissued token above the ended hold's (so its owner's release is no release run again), kept for the
     * fence retention. A value that is no lock's is left alone.
     */
    @Test
    void aForcedReleaseFreesTheLockIntoANewLifeAboveTheEndedHoldsToken() {
        long ahead = serverMillis() * 1000 + 3_600_000_000L; // raised by a Redlock majority whose clock was ahead
        server().command("SET", LOCK, "hung " + ahead + " - " + (ahead - 5) + " -");

        assertThat(store.capabilities().forcedRelease().orElseThrow().forceRelease("job", ahead)).isTrue();

        long first = ahead + 1;
        assertThat((String) server().command("GET", LOCK)).isEqualTo("~ " + first + " - " + first + " -");
        assertThat((Long) server().command("PTTL", LOCK)).isPositive().isLessThanOrEqualTo(RETENTION);
        assertThat(store.release("job", "hung", ahead)).isFalse();
        assertThat(store.tryAcquire("job", "T", LEASE, false, TIMEOUT).fencingToken()).isEqualTo(first + 1);

        server().command("SET", LOCK, "not a lock");
        assertThat(store.capabilities().forcedRelease().orElseThrow().forceRelease("job", 1)).isFalse();
        assertThat((String) server().command("GET", LOCK)).isEqualTo("not a lock");
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
        assertThat(store.capabilities().reads().orElseThrow().inspect("job").fencingToken()).isEqualTo(chosen);
        assertThat(store.release("job", "T", chosen)).isTrue();
        assertThat((String) server().command("GET", LOCK)).as("the life began with the token issued")
                .isEqualTo("~ " + chosen + " - " + issued + " -");
        assertThat(store.tryAcquire("job", "next", LEASE, false, TIMEOUT).fencingToken()).isEqualTo(chosen + 1);
        assertThat(store.release("job", "T", chosen)).as("run again").isTrue();
    }

    @Test
    void aLockKeyOfAnotherTypeIsReportedWithWhatItHoldsAndIsNobodysHold() {
        server().command("HSET", LOCK, "field", "value");

        assertThatThrownBy(() -> store.tryAcquire("job", "T", LEASE, false, TIMEOUT))
                .hasStackTraceContaining("WRONGTYPE").hasStackTraceContaining("holds a hash");
        assertThat(store.extend("job", "T", LEASE)).isFalse();
        assertThat(store.release("job", "T", 1)).isFalse();
        assertThat(store.remainingLeaseMillis("job", "T")).isNegative();
    }

    @Test
    void aHashSomethingElseWroteIsNoSemaphoreAndIsLeftAlone() {
        server().command("HSET", LOCK, "field", "value");
        PermitClaims permits = store.capabilities().permits().orElseThrow();

        assertThatThrownBy(() -> permits.takePermits("job", "T", 1, 2, LEASE, false, TIMEOUT))
                .hasStackTraceContaining("holds a hash, not a distlock semaphore");
        assertThat(store.release("job", "T", 1)).isFalse();
        assertThat(server().command("HGETALL", LOCK)).asList().hasSize(2);
    }

    @Test
    void aSemaphoreHoldersPermitsComeBackAtItsLeaseEndAndItsHolderEntryIsGone() throws Exception {
        PermitClaims permits = store.capabilities().permits().orElseThrow();
        AcquireResult dead = permits.takePermits("job", "dead", 2, 2, 300, false, TIMEOUT);
        assertThat(dead.acquired()).isTrue();
        assertThat(permits.takePermits("job", "T", 1, 2, LEASE, false, TIMEOUT).acquired()).isFalse();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        AcquireResult after = permits.takePermits("job", "T", 1, 2, LEASE, false, TIMEOUT);
        while (!after.acquired() && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20); // a poll: the dead holder's lease runs out on the server's clock
            after = permits.takePermits("job", "T", 1, 2, LEASE, false, TIMEOUT);
        }

        assertThat(after.acquired()).as("a permit, once the 300 ms lease ran out").isTrue();
        assertThat(after.fencingToken()).isGreaterThan(dead.fencingToken());
        assertThat(server().command("HEXISTS", LOCK, "o:dead")).isEqualTo(0L);
        assertThat(store.release("job", "dead", dead.fencingToken())).as("the dead holder's release finds it lost")
                .isFalse();
        assertThat(store.release("job", "T", after.fencingToken())).isTrue();
        assertThat(store.release("job", "T", after.fencingToken())).as("a replay finds its release").isTrue();
    }

    @Test
    void aReleaseRunAgainAfterAnotherHolderExpiredIsStillARelease() throws Exception {
        PermitClaims permits = store.capabilities().permits().orElseThrow();
        AcquireResult released = permits.takePermits("job", "R", 1, 3, LEASE, false, TIMEOUT);
        AcquireResult dying = permits.takePermits("job", "D", 1, 3, 300, false, TIMEOUT);
        assertThat(store.release("job", "R", released.fencingToken())).isTrue();

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (server().command("HEXISTS", LOCK, "o:D").equals(1L) && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(20); // a poll: D's 300 ms lease runs out on the server's clock
            permits.takePermits("job", "T", 1, 3, LEASE, false, TIMEOUT); // a script that looks drops D
            store.release("job", "T", 0);
        }

        assertThat(server().command("HEXISTS", LOCK, "o:D")).as("D dropped at its lease end").isEqualTo(0L);
        assertThat(store.release("job", "R", released.fencingToken())).as("R's release run again").isTrue();
        assertThat(store.release("job", "D", dying.fencingToken())).as("D's release: lost, not released").isFalse();
    }

    @Test
    void keepingFewerPermitsHandsTheRestToTheWaitersThatFitKeepsTheLeaseAndFenceAndRunsAgainHarmlessly() {
        PermitClaims permits = store.capabilities().permits().orElseThrow();
        AcquireResult writer = permits.takePermits("job", "W", 4, 4, LEASE, false, TIMEOUT);
        assertThat(permits.takePermits("job", "R1", 1, 4, LEASE, true, TIMEOUT).acquired()).isFalse();
        assertThat(permits.takePermits("job", "R2", 1, 4, LEASE, true, TIMEOUT).acquired()).isFalse();
        assertThat(permits.takePermits("job", "W2", 4, 4, LEASE, true, TIMEOUT).acquired()).isFalse();
        Object ttl = server().command("PTTL", LOCK);

        assertThat(permits.keepPermits("job", "W", 1)).isTrue();

        Object entry = server().command("HGET", LOCK, "o:W");
        assertThat(entry instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : entry.toString())
                .as("its lease end, 1 permit, its fencing token").endsWith(" 1 " + writer.fencingToken());
        assertThat(server().command("HEXISTS", LOCK, "o:R1")).as("the first waiter let in").isEqualTo(1L);
        assertThat(server().command("HEXISTS", LOCK, "o:R2")).as("the second too").isEqualTo(1L);
        assertThat(server().command("HEXISTS", LOCK, "o:W2")).as("not the writer, which needs all").isEqualTo(0L);
        assertThat((Long) server().command("PTTL", LOCK)).isLessThanOrEqualTo((Long) ttl);
        assertThat(permits.keepPermits("job", "W", 1)).as("run again").isTrue();
        assertThat(permits.keepPermits("job", "gone", 1)).as("no holder of that token").isFalse();
        assertThat(store.release("job", "W", writer.fencingToken())).isTrue();
    }

    @Test
    void theHotPathRunsAsOneFunctionLibraryWhereTheServerHasFunctionsElseAsScripts() throws Exception {
        AsyncLockStore async = store.capabilities().async().orElseThrow();
        server().command("CONFIG", "RESETSTAT");

        assertThat(async.tryAcquire("job", "T", LEASE, true, TIMEOUT).toCompletableFuture().get(10, TimeUnit.SECONDS)
                .acquired()).isTrue();
        assertThat(async.release("job", "T", 1).toCompletableFuture().get(10, TimeUnit.SECONDS)).isTrue();

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
