package dev.distlock.core.support;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.Lease;
import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.LockRequest;
import dev.distlock.core.engine.VirtualRuntime;
import dev.distlock.core.engine.acquire.Attempt;
import dev.distlock.core.engine.hold.Hold;
import dev.distlock.core.engine.hold.HoldClock;
import dev.distlock.core.engine.hold.HoldLook;
import dev.distlock.core.spi.AcquireResult;
import dev.distlock.core.spi.Grant;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which hand-off notice an {@link Attempt} trusts without asking the store, and until when: the notice's time on the
 * store's clock is read against the last try's (sent at a known local moment), so the deadline errs early; a notice
 * older than the last try is stale; at least half of the claim must be left. On a {@link VirtualRuntime}, so each
 * rule is tested at its exact instant.
 */
@BoundedTest
class AttemptNoticeTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long CLAIM = 3_000;
    /** The store's clock (ms) when the last try ran. */
    private static final long SERVER = 1_000_000;

    private final VirtualRuntime clock = new VirtualRuntime();
    private final FaultyStore store = new FaultyStore();
    private final EngineFixtures.TestRegistry registry = EngineFixtures.registry(store,
            EngineFixtures.settings().runtime(clock));
    private final LockRequest request = ((StoreLockRegistry) registry).engine().request("n", Lease.renewed(Duration.ofSeconds(30)), null);
    private final Attempt attempt = new Attempt(((StoreLockRegistry) registry).engine(), request, "t", () -> { }, true);
    /** When the last try was sent (local monotonic clock). */
    private final long sent = attempt.sending();

    @AfterEach
    void close() {
        attempt.close(true);
        registry.close();
    }

    /** The last try, sent at {@link #sent}, answered 5 ms later: busy, the store's clock at {@link #SERVER}. */
    private void lastTryAnsweredBusy() {
        clock.advance(5 * MS);
        attempt.received(sent, AcquireResult.busy(10_000, SERVER), true);
    }

    @Test
    void aNoticeFromTheSameStoreMillisecondAsTheLastTryIsNotStale() {
        // the try saw the lock busy at SERVER; a hand-off at SERVER came after it (a stale one is strictly older)
        lastTryAnsweredBusy();
        attempt.accept(new Grant(7, SERVER, CLAIM));

        Hold hold = attempt.noticeHold();

        assertThat(hold).isNotNull();
        assertThat(hold.fencingToken).isEqualTo(7);
        assertThat(hold.validUntilNanos()).as("the claim less its drift, from the try's send")
                .isEqualTo(sent + (CLAIM - HoldClock.driftMillis(CLAIM)) * MS);
        assertThat(attempt.mustLeave()).as("the hold owns what the token holds now").isFalse();
    }

    @Test
    void aNoticeOlderThanTheLastTryIsStale() {
        lastTryAnsweredBusy();
        attempt.accept(new Grant(7, SERVER - 1, CLAIM));

        assertThat(attempt.noticeHold()).isNull();
        assertThat(attempt.mustLeave()).isTrue();
    }

    @Test
    void aNoticeLaterThanTheLastTryIsValidFromTheTrysSendPlusTheStoreTimeBetweenThem() {
        // the store's clock moved 500 ms from the try to the hand-off: the claim runs from then
        lastTryAnsweredBusy();
        clock.advance(500 * MS);
        attempt.accept(new Grant(7, SERVER + 500, CLAIM));

        Hold hold = attempt.noticeHold();

        assertThat(hold).isNotNull();
        assertThat(hold.validUntilNanos()).isEqualTo(sent + (500 + CLAIM - HoldClock.driftMillis(CLAIM)) * MS);
    }

    @Test
    void aNoticeIsTrustedWhileHalfItsClaimIsLeftAndNotANanosecondLater() {
        // half the claim: enough to use the lock and confirm it before it runs out
        lastTryAnsweredBusy();
        attempt.accept(new Grant(7, SERVER, CLAIM));
        long validUntil = sent + (CLAIM - HoldClock.driftMillis(CLAIM)) * MS;
        long halfClaim = CLAIM * MS / 2;

        clock.advance(validUntil - halfClaim - clock.nanoTime());
        assertThat(attempt.noticeHold()).as("exactly half the claim left").isNotNull();

        Attempt later = new Attempt(((StoreLockRegistry) registry).engine(), request, "t2", () -> { }, true);
        later.sending();
        later.received(sent, AcquireResult.busy(10_000, SERVER), true);
        later.accept(new Grant(8, SERVER, CLAIM));
        clock.advance(1);
        assertThat(later.noticeHold()).as("a nanosecond less than half left").isNull();
        later.close(true);
    }

    @Test
    void aTrustedNoticesHoldIsConfirmedAThirdIntoWhatIsLeftOfItsClaim() {
        lastTryAnsweredBusy();
        attempt.accept(new Grant(7, SERVER, CLAIM));
        long now = clock.nanoTime();

        Hold hold = attempt.noticeHold();

        long due = now + (hold.validUntilNanos() - now) / 3;
        assertThat(hold.look(due - 1).due()).isEqualTo(HoldLook.Due.LATER);
        assertThat(hold.look(due).due()).as("the confirmation falls due").isEqualTo(HoldLook.Due.RENEWAL);
        assertThat(hold.expiryReason()).contains("hand-off");
    }

    @Test
    void withoutANoticeOrWhenTheStoreDoesNotVouchForItsNoticesTheNextTryAsks() {
        lastTryAnsweredBusy();
        assertThat(attempt.noticeHold()).as("no notice").isNull();

        store.noticesTrusted = false;
        attempt.accept(new Grant(7, SERVER, CLAIM));
        assertThat(attempt.noticeHold()).as("an untrusted notice").isNull();
    }

    @Test
    void anAcquiringAnswerCountsWhileATenthOfTheLeaseIsLeftFromItsSend() {
        // a reply that took almost the whole lease leaves too little to use the lock safely
        long lease = request.leaseMillis();
        long validUntil = HoldClock.validUntil(sent, lease);
        clock.advance(validUntil - lease / 10 * MS - sent);
        attempt.received(sent, AcquireResult.acquired(9, SERVER), true);

        Hold hold = attempt.acquired();

        assertThat(hold).as("exactly a tenth left").isNotNull();
        assertThat(hold.validUntilNanos()).isEqualTo(validUntil);
        assertThat(attempt.lastReplyNanos()).isEqualTo(clock.nanoTime() - sent);

        Attempt late = new Attempt(((StoreLockRegistry) registry).engine(), request, "t2", () -> { }, true);
        late.sending();
        clock.advance(1);
        late.received(sent, AcquireResult.acquired(9, SERVER), true);
        assertThat(late.acquired()).as("a nanosecond less").isNull();
        assertThat(late.mustLeave()).as("its token still holds the lock: it is abandoned on close").isTrue();
        late.close(true);
    }
}
