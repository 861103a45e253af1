package dev.distlock.core.engine.hold;

import static dev.distlock.core.engine.EngineFixtures.HOUR_NANOS;
import static dev.distlock.core.engine.EngineFixtures.hold;
import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.engine.BoundedTest;
import dev.distlock.core.engine.EngineFixtures;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A hold's transitions ({@link Hold}, {@link TrustedLease}): what the watchdog finds due at given instants, how
 * renewals, an extend and a possible extend move the deadline, and that a hold ends once and gives its gate back
 * once.
 */
@BoundedTest
class HoldTransitionsTest {

    private static final long T0 = 5_000_000_000L;
    private static final long LEASE = 30_000;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    /** A renewed hold sent at T0: trusted until its deadline, its renewal due a third into the lease. */
    private static Hold renewedAtT0() {
        return hold(LEASE, true, HoldClock.validUntil(T0, LEASE), false, HoldClock.renewalDue(T0, LEASE));
    }

    @Test
    void theDeadlinePassesAtItsInstantNotBeforeAndIsALossWhenTheWatchdogLooks() {
        Hold hold = renewedAtT0();
        long deadline = HoldClock.validUntil(T0, LEASE);

        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
        assertThat(hold.isPastDeadline(deadline - 1)).isFalse();
        assertThat(hold.isPastDeadline(deadline)).isTrue();
        assertThat(hold.look(deadline).due()).isEqualTo(HoldLook.Due.LOSS);
        // a renewal due at that moment does not hide the loss
        assertThat(hold.look(deadline + ms(1)).due()).isEqualTo(HoldLook.Due.LOSS);
    }

    @Test
    void aRenewalIsDueAThirdIntoTheLeaseAndOnlyOneIsInFlight() {
        Hold hold = renewedAtT0();
        long due = HoldClock.renewalDue(T0, LEASE);

        assertThat(hold.look(due - 1)).isEqualTo(HoldLook.LATER);
        HoldLook renewal = hold.look(due);
        assertThat(renewal.due()).isEqualTo(HoldLook.Due.RENEWAL);
        assertThat(renewal.leaseMillis()).isEqualTo(LEASE);
        assertThat(renewal.epoch()).isZero();
        assertThat(hold.look(due + ms(1)).due()).as("while the renewal is in flight").isEqualTo(HoldLook.Due.LATER);
    }

    @Test
    void aFixedLeaseIsNeverRenewedButAHandOffsClaimIsConfirmedOnce() {
        Hold fixed = hold(LEASE, false, T0 + HOUR_NANOS, false, T0);
        assertThat(fixed.look(T0 + ms(1)).due()).isEqualTo(HoldLook.Due.LATER);

        Hold claim = hold(LEASE, false, T0 + ms(900), true, T0 + ms(300));
        assertThat(claim.look(T0 + ms(299)).due()).isEqualTo(HoldLook.Due.LATER);
        HoldLook confirmation = claim.look(T0 + ms(300));
        assertThat(confirmation.due()).isEqualTo(HoldLook.Due.RENEWAL);
        assertThat(confirmation.leaseMillis()).isEqualTo(LEASE);

        claim.renewalConfirmed(T0 + ms(300), LEASE, confirmation.epoch());
        assertThat(claim.validUntilNanos()).isEqualTo(HoldClock.validUntil(T0 + ms(300), LEASE));
        // confirmed: a fixed lease is not renewed after it, however late it is
        assertThat(claim.look(T0 + ms(20_000)).due()).isEqualTo(HoldLook.Due.LATER);
    }

    @Test
    void aConfirmedRenewalMovesTheDeadlineAndTheNextRenewalFromItsSend() {
        Hold hold = renewedAtT0();
        long due = HoldClock.renewalDue(T0, LEASE);
        HoldLook renewal = hold.look(due);
        long sent = due + ms(3);

        hold.renewalConfirmed(sent, renewal.leaseMillis(), renewal.epoch());

        assertThat(hold.validUntilNanos()).isEqualTo(HoldClock.validUntil(sent, LEASE));
        long next = HoldClock.renewalDue(sent, LEASE);
        assertThat(hold.look(next - 1).due()).isEqualTo(HoldLook.Due.LATER);
        assertThat(hold.look(next).due()).isEqualTo(HoldLook.Due.RENEWAL);
    }

    @Test
    void aRenewalConfirmedLateNeverMovesTheDeadlineBack() {
        Hold hold = renewedAtT0();
        long deadline = hold.validUntilNanos();
        HoldLook renewal = hold.look(HoldClock.renewalDue(T0, LEASE));

        hold.renewalConfirmed(T0 - ms(1_000), LEASE, renewal.epoch()); // sent before the acquisition's own send

        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
    }

    @Test
    void aRenewalSentBeforeAnExtendCannotMoveTheDeadlineItSet() {
        Hold hold = renewedAtT0();
        HoldLook renewal = hold.look(HoldClock.renewalDue(T0, LEASE));
        long extendSent = T0 + ms(10_001);

        assertThat(hold.leaseSet(extendSent, 1_000)).isTrue();
        hold.renewalConfirmed(T0 + ms(10_002), renewal.leaseMillis(), renewal.epoch());

        assertThat(hold.leaseMillis()).isEqualTo(1_000);
        assertThat(hold.validUntilNanos()).isEqualTo(HoldClock.validUntil(extendSent, 1_000));
        // and the answer ended the renewal in flight: the next one goes out when due by the new lease
        HoldLook next = hold.look(HoldClock.renewalDue(extendSent, 1_000));
        assertThat(next.due()).isEqualTo(HoldLook.Due.RENEWAL);
        assertThat(next.leaseMillis()).isEqualTo(1_000);
        assertThat(next.epoch()).isEqualTo(1);
    }

    @Test
    void anExtendSetsTheDeadlineShorterOrLongerAndEndsAPendingConfirmation() {
        Hold claim = hold(LEASE, false, T0 + ms(900), true, T0 + ms(300));
        long sent = T0 + ms(100);

        assertThat(claim.leaseSet(sent, 60_000)).isTrue();

        assertThat(claim.validUntilNanos()).isEqualTo(HoldClock.validUntil(sent, 60_000));
        assertThat(claim.leaseMillis()).isEqualTo(60_000);
        assertThat(claim.look(T0 + ms(30_000)).due()).as("nothing left to confirm").isEqualTo(HoldLook.Due.LATER);
        assertThat(claim.expiryReason()).isEqualTo("its fixed lease of PT1M ran out");

        Hold shortened = renewedAtT0();
        assertThat(shortened.leaseSet(sent, 1_000)).isTrue();
        assertThat(shortened.validUntilNanos()).isEqualTo(HoldClock.validUntil(sent, 1_000));
    }

    @Test
    void anExtendCannotReviveAHoldThatEndedOrWasLost() {
        Hold lost = renewedAtT0();
        long deadline = lost.validUntilNanos();
        assertThat(lost.markLost("gone")).isTrue();
        assertThat(lost.leaseSet(T0 + ms(1), LEASE)).isFalse();
        assertThat(lost.validUntilNanos()).isEqualTo(deadline);
        assertThat(lost.look(T0).due()).isEqualTo(HoldLook.Due.NOTHING);

        Hold ended = renewedAtT0();
        assertThat(ended.end()).isTrue();
        assertThat(ended.leaseSet(T0 + ms(1), LEASE)).isFalse();
        assertThat(ended.look(T0).due()).isEqualTo(HoldLook.Due.NOTHING);
    }

    @Test
    void anExtendWithoutAnAnswerKeepsTheShorterDeadlineAndMakesEarlierRenewalsStale() {
        Hold hold = renewedAtT0();
        long deadline = hold.validUntilNanos();
        HoldLook renewal = hold.look(HoldClock.renewalDue(T0, LEASE));

        hold.leaseMaybeSet(T0 + ms(1), 60_000); // longer: the old deadline stands
        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
        hold.leaseMaybeSet(T0 + ms(2), 1_000); // shorter: it counts
        assertThat(hold.validUntilNanos()).isEqualTo(HoldClock.validUntil(T0 + ms(2), 1_000));

        hold.renewalConfirmed(T0 + ms(3), LEASE, renewal.epoch());
        assertThat(hold.validUntilNanos()).isEqualTo(HoldClock.validUntil(T0 + ms(2), 1_000));
    }

    @Test
    void everyExtendWithOrWithoutAnAnswerMakesEarlierRenewalsStaleForGood() {
        Hold hold = renewedAtT0();
        HoldLook renewal = hold.look(HoldClock.renewalDue(T0, LEASE));
        hold.leaseMaybeSet(T0 + ms(1), 1_000);
        assertThat(hold.leaseSet(T0 + ms(2), 1_000)).isTrue();
        long deadline = hold.validUntilNanos();

        hold.renewalConfirmed(T0 + ms(3), LEASE, renewal.epoch());

        assertThat(hold.validUntilNanos()).isEqualTo(deadline);
        assertThat(hold.leaseMillis()).isEqualTo(1_000);
    }

    @Test
    void aFailedRenewalIsTriedAgainAfterItsDelayAndTheStreakCountsUntilOneIsConfirmed() {
        long now = EngineFixtures.now();
        Hold hold = EngineFixtures.hold(LEASE, true, now + HOUR_NANOS, false, now);
        HoldLook renewal = hold.look(now);
        assertThat(renewal.due()).isEqualTo(HoldLook.Due.RENEWAL);

        assertThat(EngineFixtures.renewalFailed(hold, now, HOUR_NANOS / 2)).isEqualTo(1);
        assertThat(hold.look(now + ms(1)).due()).as("before the retry delay").isEqualTo(HoldLook.Due.LATER);
        assertThat(hold.look(now + HOUR_NANOS / 2 + ms(1_000)).due()).isEqualTo(HoldLook.Due.RENEWAL);
        assertThat(EngineFixtures.renewalFailed(hold, now, 0)).isEqualTo(2);
        HoldLook retry = hold.look(EngineFixtures.now() + 1);
        assertThat(retry.due()).as("retried at once after a zero delay").isEqualTo(HoldLook.Due.RENEWAL);

        hold.renewalConfirmed(now, LEASE, retry.epoch());
        hold.look(HoldClock.renewalDue(now, LEASE));
        assertThat(EngineFixtures.renewalFailed(hold, now, 0)).as("a new streak").isEqualTo(1);
    }

    @Test
    void aRenewalThatFoundTheTokenGoneIsNoLongerInFlight() {
        Hold hold = renewedAtT0();
        long due = HoldClock.renewalDue(T0, LEASE);
        hold.look(due);

        hold.renewalRefused();

        assertThat(hold.look(due + 1).due()).isEqualTo(HoldLook.Due.RENEWAL);
    }

    @Test
    void aHoldEndsOnceEitherLostOrEndedAndALossIsRecordedOnlyTheFirstTime() {
        Hold lost = renewedAtT0();
        assertThat(lost.isActive()).isTrue();
        assertThat(lost.markLost("first")).isTrue();
        assertThat(lost.markLost("second")).isFalse();
        assertThat(lost.end()).isFalse();
        assertThat(lost.isActive()).isFalse();
        assertThat(lost.isHeld()).isFalse();
        assertThat(lost.lostReason()).isEqualTo("first");

        Hold ended = renewedAtT0();
        assertThat(ended.end()).isTrue();
        assertThat(ended.end()).isFalse();
        assertThat(ended.markLost("after the end")).isFalse();
        assertThat(ended.isActive()).isFalse();
        assertThat(ended.lostReason()).as("no recorded loss: the deadline's reason")
                .isEqualTo("no renewal of its lease of PT30S was confirmed by the store in time");
    }

    @Test
    void aHoldIsHeldUntilItsDeadlineOnTheEnginesClock() {
        long now = EngineFixtures.now();
        assertThat(EngineFixtures.hold(LEASE, true, now + HOUR_NANOS, false, now + HOUR_NANOS).isHeld()).isTrue();
        assertThat(EngineFixtures.hold(LEASE, true, now - 1, false, now + HOUR_NANOS).isHeld()).isFalse();
    }

    @Test
    void theExpiryReasonSaysWhatKindOfLeaseRanOut() {
        assertThat(hold(LEASE, true, T0, false, T0).expiryReason())
                .isEqualTo("no renewal of its lease of PT30S was confirmed by the store in time");
        assertThat(hold(5_000, false, T0, false, T0).expiryReason()).isEqualTo("its fixed lease of PT5S ran out");
        assertThat(hold(5_000, true, T0, true, T0).expiryReason())
                .isEqualTo("the hand-off to it was not confirmed with the store within its claim lease");
    }

    @Test
    void aHoldGivesItsGateBackOnceAndNotAtAllOnceItHandedItOn() throws Exception {
        NameState state = new NameState();
        state.gate.enter(null);
        NameGate.Waiting second = state.gate.enter(null);
        NameGate.Waiting third = state.gate.enter(null);
        Hold hold = EngineFixtures.hold(state, "gate", "t", 1, LEASE, true, T0, false, T0);

        hold.giveBackGate();
        hold.giveBackGate();

        second.entry.get(5, TimeUnit.SECONDS);
        assertThat(third.entry).as("the second give-back lets nobody else in").isNotDone();

        Hold handedOn = EngineFixtures.hold(state, "gate", "t2", 2, LEASE, true, T0, false, T0);
        handedOn.handOnGate();
        handedOn.giveBackGate();
        assertThat(third.entry).as("a gate handed on is not given back").isNotDone();
        assertThat(state.gate.withdraw(third)).isTrue();
    }

    @Test
    void anEventNamesTheHoldAndHowLongItWasHeld() {
        Hold hold = EngineFixtures.hold(new NameState(), "evented", "tok", 42, LEASE, true, T0, false, T0);
        IllegalStateException error = new IllegalStateException("x");

        var event = hold.event(error);

        assertThat(event.lockName()).isEqualTo("evented");
        assertThat(event.fencingToken()).isEqualTo(42);
        assertThat(event.error()).isSameAs(error);
        assertThat(event.elapsed()).isBetween(java.time.Duration.ZERO, java.time.Duration.ofMinutes(1));
        assertThat(hold.acquiredAt()).isBeforeOrEqualTo(java.time.Instant.now());
    }

    @Test
    void theWatchdogLooksNextAtTheRenewalIfDueBeforeTheDeadlineElseAtTheDeadline() {
        long now = EngineFixtures.now();
        long slack = ms(60_000); // the time this test itself may take on a loaded machine, and more

        EngineFixtures.RecordedLease renewed = new EngineFixtures.RecordedLease(LEASE, true,
                now + HOUR_NANOS, false, now + HOUR_NANOS / 2);
        renewed.planNextLook();
        assertThat(renewed.lastLook().getDelay(TimeUnit.NANOSECONDS))
                .isBetween(HOUR_NANOS / 2 - slack, HOUR_NANOS / 2);

        EngineFixtures.RecordedLease fixed = new EngineFixtures.RecordedLease(LEASE, false,
                now + HOUR_NANOS, false, now + HOUR_NANOS / 2);
        fixed.planNextLook();
        assertThat(fixed.lastLook().getDelay(TimeUnit.NANOSECONDS)).isBetween(HOUR_NANOS - slack, HOUR_NANOS);

        EngineFixtures.RecordedLease claim = new EngineFixtures.RecordedLease(LEASE, false,
                now + HOUR_NANOS, true, now + HOUR_NANOS / 2);
        claim.planNextLook();
        assertThat(claim.lastLook().getDelay(TimeUnit.NANOSECONDS))
                .isBetween(HOUR_NANOS / 2 - slack, HOUR_NANOS / 2);

        EngineFixtures.RecordedLease renewalAfterDeadline = new EngineFixtures.RecordedLease(LEASE, true,
                now + HOUR_NANOS / 2, false, now + HOUR_NANOS);
        renewalAfterDeadline.planNextLook();
        assertThat(renewalAfterDeadline.lastLook().getDelay(TimeUnit.NANOSECONDS))
                .isBetween(HOUR_NANOS / 2 - slack, HOUR_NANOS / 2);

        EngineFixtures.RecordedLease inFlight = new EngineFixtures.RecordedLease(LEASE, true,
                now + HOUR_NANOS, false, now);
        assertThat(inFlight.look(now).due()).isEqualTo(HoldLook.Due.RENEWAL);
        inFlight.planNextLook();
        assertThat(inFlight.lastLook().getDelay(TimeUnit.NANOSECONDS)).as("the deadline, while a renewal flies")
                .isBetween(HOUR_NANOS - slack, HOUR_NANOS);

        EngineFixtures.RecordedLease expired = new EngineFixtures.RecordedLease(LEASE, true,
                now - HOUR_NANOS, false, now + HOUR_NANOS);
        expired.planNextLook();
        assertThat(expired.lastLook().getDelay(TimeUnit.NANOSECONDS)).isLessThanOrEqualTo(0);
    }

    @Test
    void aNewLookReplacesThePlannedOneAndNothingIsPlannedOnceTheHoldIsNoLongerActive() {
        long now = EngineFixtures.now();
        EngineFixtures.RecordedLease lease = new EngineFixtures.RecordedLease(LEASE, true,
                now + HOUR_NANOS, false, now + HOUR_NANOS / 2);
        lease.planNextLook();
        lease.planNextLook();
        assertThat(lease.looks).hasSize(2);
        assertThat(lease.looks.get(0).isCancelled()).isTrue();
        assertThat(lease.looks.get(1).isCancelled()).isFalse();

        lease.cancelNextLook();
        assertThat(lease.looks.get(1).isCancelled()).isTrue();

        lease.active = false;
        lease.planNextLook();
        assertThat(lease.looks).hasSize(2);
        assertThat(lease.look(now).due()).isEqualTo(HoldLook.Due.NOTHING);
    }
}
