package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.spi.AcquireResult;
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
 * type, a fence holding garbage or a lease that ran out with waiters queued leave them: what only Redis shows (key
 * layout, TTLs, commands); the protocol every store holds to is {@code LockStoreContract}'s.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class RedisScriptsTests {

    private static final String LOCK = "distlock:{job}";
    private static final String FENCE = LOCK + ":fence";
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
                new GrantInbox(new RedisMessageListenerContainer(), false, "distlock:granted:test", true), RETENTION);
    }

    @AfterEach
    void disconnect() {
        factory.destroy();
    }

    @Test
    void aReleaseRunTwiceReportsTheReleaseItMadeUntilAnotherReleaseReplacesItsTrace() {
        store.tryAcquire("job", "T", LEASE, false, TIMEOUT);

        assertThat(store.release("job", "T")).isTrue();
        assertThat((Long) server().command("PTTL", LOCK + ":released")).as("the trace lives no longer than the lease")
                .isPositive().isLessThanOrEqualTo(LEASE);
        assertThat(store.release("job", "T")).as("run again").isTrue();

        store.tryAcquire("job", "other", LEASE, false, TIMEOUT);
        assertThat(store.release("job", "T")).as("run again after another owner took the lock").isTrue();
        assertThat((String) server().command("GET", LOCK)).as("the other owner's lock is untouched").isEqualTo("other");
        store.release("job", "other");
        assertThat(store.release("job", "T")).as("the other owner's release replaced the trace").isFalse();
    }

    @Test
    void theTraceOfAReleaseLivesNoLongerThanTheFence() {
        long year = 365L * 24 * 3_600_000;
        store.tryAcquire("job", "T", year, false, TIMEOUT);

        assertThat(store.release("job", "T")).isTrue();

        assertThat((Long) server().command("PTTL", LOCK + ":released")).isPositive()
                .isLessThanOrEqualTo(RETENTION);
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
        server().command("SET", FENCE, (max - 1) + " someone");

        AcquireResult last = store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        assertThat(last.fencingToken()).isEqualTo(max);
        assertThat(store.release("job", "T")).isTrue();

        assertThatThrownBy(() -> store.tryAcquire("job", "U", LEASE, false, TIMEOUT))
                .hasStackTraceContaining("fencing tokens of " + LOCK + " are exhausted")
                .hasStackTraceContaining(Long.toString(max));
        assertThat((Long) server().command("EXISTS", LOCK)).as("no lock left behind").isZero();
        assertThat((String) server().command("GET", FENCE)).startsWith(max + " T");
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
        assertThat((String) server().command("GET", LOCK)).startsWith("W ").endsWith(" T");
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
    void fencingTokensStayAboveTheServerClockWhateverTheFenceHolds() {
        long before = serverMillis() * 1000;
        for (String garbage : List.of("-5", "not a number", "99999999999999999999999", "")) {
            server().command("SET", FENCE, garbage);
            AcquireResult result = store.tryAcquire("job", "T:" + garbage, LEASE, false, TIMEOUT);
            assertThat(result.acquired()).as(garbage).isTrue();
            assertThat(result.fencingToken()).as(garbage).isGreaterThanOrEqualTo(before);
            assertThat(result.fencingToken()).as(garbage).isLessThan(before + 60_000_000L);
            store.release("job", "T:" + garbage);
        }
        server().command("DEL", FENCE);
        server().command("RPUSH", FENCE, "a list");
        AcquireResult result = store.tryAcquire("job", "T", LEASE, false, TIMEOUT);
        assertThat(result.acquired()).isTrue();
        assertThat(result.fencingToken()).isGreaterThanOrEqualTo(before);
    }

    @Test
    void fencingTokensNeverGoBackWhenTheLastOneIsAheadOfTheClock() {
        long ahead = serverMillis() * 1000 + 3_600_000_000L; // issued by a server whose clock was an hour ahead
        server().command("SET", FENCE, ahead + " someone");

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

    private long serverMillis() {
        List<?> time = (List<?>) server().command("TIME");
        return Long.parseLong((String) time.get(0)) * 1000 + Long.parseLong((String) time.get(1)) / 1000;
    }

    private void awaitKeyGone(String key) {
        RedisProbes.awaitUntil(() -> Long.valueOf(0).equals(server().command("EXISTS", key)));
    }
}
