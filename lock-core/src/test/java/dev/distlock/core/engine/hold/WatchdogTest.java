package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.LockBackendException;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.Engine;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What the {@link Watchdog} makes of a renewal's answer and of time passing: a renewal that finds the token gone
 * loses the hold, a confirmed one moves its deadline, a failed one is retried and told to the listeners, and a
 * passed deadline is a loss. The store is in memory and its renewals are real; every wait is bounded.
 */
@BoundedTest
class WatchdogTest {

    private static final long LEASE = 30_000;

    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.Engine engine = EngineFixtures.engine(store);
    private final LinkedBlockingQueue<String> losses = new LinkedBlockingQueue<>();
    private final List<Hold> lost = new CopyOnWriteArrayList<>();
    private final Watchdog watchdog = engine.watchdog((hold, reason) -> {
        lost.add(hold);
        losses.add(reason);
    });

    @AfterEach
    void close() {
        engine.close();
    }

    private String nextLoss() throws InterruptedException {
        String reason = losses.poll(5, TimeUnit.SECONDS);
        assertThat(reason).as("a loss reported within 5 s").isNotNull();
        return reason;
    }

    @Test
    void aRenewalThatFindsTheTokenGoneLosesTheHold() throws Exception {
        Hold hold = engine.acquired("w", "t1", LEASE);
        long deadline = hold.validUntilNanos();

        watchdog.renewalAnswered(hold, false, EngineFixtures.now(), LEASE, 0);

        assertThat(lost).containsExactly(hold);
        assertThat(losses.poll()).isEqualTo("a renewal found that the store no longer holds it under this hold's "
                + "token");
        assertThat(hold.validUntilNanos()).as("no deadline moved by the refusal").isEqualTo(deadline);
    }

    @Test
    void aConfirmedRenewalMovesTheDeadlineFromItsSend() {
        long now = EngineFixtures.now();
        Hold hold = engine.acquired("w", "t1", LEASE, now + TimeUnit.SECONDS.toNanos(5));

        watchdog.renewalAnswered(hold, true, now, LEASE, 0);

        assertThat(hold.validUntilNanos()).isEqualTo(HoldClock.validUntil(now, LEASE));
        assertThat(lost).isEmpty();
        hold.end();
        watchdog.unwatch(hold);
    }

    @Test
    void aFailedRenewalIsToldToTheListenersAndTriedAgainSoon() throws Exception {
        long now = EngineFixtures.now();
        Hold hold = engine.acquired("w", "t1", 1_000, now + EngineFixtures.HOUR_NANOS);

        watchdog.renewalFailed(hold, 1_000, new IllegalStateException("down"));

        assertThat(engine.heard.kinds).containsExactly("renewalFailed");
        assertThat(engine.heard.events.get(0).error()).isInstanceOf(LockBackendException.class)
                .hasRootCauseMessage("down");
        // the retry falls due a tenth of the lease later (100ms), not at the old renewal time
        assertThat(hold.look(EngineFixtures.now() + TimeUnit.MILLISECONDS.toNanos(100) + 1).due())
                .isEqualTo(HoldLook.Due.RENEWAL);
        hold.end();
        watchdog.unwatch(hold);
    }

    @Test
    void aFailedRenewalOfAHoldThatEndedMeanwhileIsNotTold() {
        Hold hold = engine.acquired("w", "t1", LEASE);
        hold.end();

        watchdog.renewalFailed(hold, LEASE, new IllegalStateException("down"));

        assertThat(engine.heard.kinds).isEmpty();
    }

    @Test
    void aWatchedHoldIsRenewedInTheStoreBeforeItsDeadlineAndLostOnceTheTokenIsGone() throws Exception {
        long now = EngineFixtures.now();
        long lease = 3_000;
        // a renewal due at once, the deadline a lease away: the watchdog renews, and the store's answer counts
        Hold hold = EngineFixtures.hold(engine.names.retain("w"), "w", "t1",
                store.tryAcquire("w", "t1", lease, false, 1_000).fencingToken(), lease, true,
                HoldClock.validUntil(now, lease), false, now);

        watchdog.watch(hold);

        EngineFixtures.awaitTrue(() -> hold.validUntilNanos() > HoldClock.validUntil(now, lease),
                "the deadline moved by a confirmed renewal");
        assertThat(lost).isEmpty();

        store.memory.delete("w");

        assertThat(nextLoss()).contains("no longer holds it");
        assertThat(lost).containsExactly(hold);
    }

    @Test
    void aHoldWhoseDeadlinePassesWithoutARenewalIsLostWithItsExpiryReason() throws Exception {
        long now = EngineFixtures.now();
        Hold hold = EngineFixtures.hold(engine.names.retain("w"), "w", "t1", 1, LEASE, false,
                now + TimeUnit.MILLISECONDS.toNanos(20), false, now + EngineFixtures.HOUR_NANOS);

        watchdog.watch(hold);

        assertThat(nextLoss()).isEqualTo("its fixed lease of PT30S ran out");
        assertThat(lost).containsExactly(hold);
    }
}
