package dev.distlock.core.engine.hold;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * The engine's time rules, each with explicit instants on the monotonic clock: no test here reads a clock, so each
 * answer is exact.
 */
class HoldClockTest {

    /** An arbitrary moment of the monotonic clock, away from zero (its origin means nothing). */
    private static final long T0 = 7_000_000_123L;

    private static long ms(long millis) {
        return TimeUnit.MILLISECONDS.toNanos(millis);
    }

    @Test
    void theDriftMarginIsOnePercentPlusTwoMillisecondsAndAtMostHalfTheLease() {
        assertThat(HoldClock.driftMillis(30_000)).isEqualTo(302);
        assertThat(HoldClock.driftMillis(100)).isEqualTo(3);
        assertThat(HoldClock.driftMillis(1_000)).isEqualTo(12);
        // a lease this short is never granted, but the margin must still be positive and leave half of it
        assertThat(HoldClock.driftMillis(4)).isEqualTo(2);
        assertThat(HoldClock.driftMillis(3)).isEqualTo(1);
    }

    @Test
    void theLocalDeadlineIsTheSendPlusTheLeaseMinusTheDriftMargin() {
        assertThat(HoldClock.validUntil(T0, 30_000)).isEqualTo(T0 + ms(30_000 - 302));
        assertThat(HoldClock.validUntil(T0, 100)).isEqualTo(T0 + ms(97));
        // always before the key can expire in the store, never at or after it
        assertThat(HoldClock.validUntil(T0, 1_000)).isLessThan(T0 + ms(1_000)).isGreaterThan(T0);
        // the monotonic clock may read negative
        assertThat(HoldClock.validUntil(-ms(5), 1_000)).isEqualTo(-ms(5) + ms(988));
    }

    @Test
    void anAcquisitionCountsOnlyWhileATenthOfItsLeaseIsLeft() {
        long lease = 30_000;
        long validUntil = HoldClock.validUntil(T0, lease);
        long tenth = ms(3_000);

        assertThat(HoldClock.validEnough(validUntil, lease, validUntil - tenth)).isTrue();
        assertThat(HoldClock.validEnough(validUntil, lease, validUntil - tenth + 1)).isFalse();
        assertThat(HoldClock.validEnough(validUntil, lease, T0)).isTrue();
        assertThat(HoldClock.validEnough(validUntil, lease, validUntil)).isFalse();
        // a lease under ten milliseconds still needs a millisecond left
        assertThat(HoldClock.validEnough(T0 + ms(1), 5, T0)).isTrue();
        assertThat(HoldClock.validEnough(T0 + ms(1), 5, T0 + 1)).isFalse();
    }

    @Test
    void aReplyMayTakeTheLeaseLessItsDriftMarginAndTheTenthThatMustBeLeft() {
        assertThat(HoldClock.replyAllowanceNanos(30_000)).isEqualTo(ms(30_000 - 302 - 3_000));
        assertThat(HoldClock.replyAllowanceNanos(1_000)).isEqualTo(ms(1_000 - 12 - 100));
        assertThat(HoldClock.replyAllowanceNanos(5)).isEqualTo(ms(5 - 2 - 1));
        long validUntil = HoldClock.validUntil(T0, 1_000);
        assertThat(HoldClock.validEnough(validUntil, 1_000, T0 + HoldClock.replyAllowanceNanos(1_000))).isTrue();
        assertThat(HoldClock.validEnough(validUntil, 1_000, T0 + HoldClock.replyAllowanceNanos(1_000) + 1))
                .isFalse();
    }

    @Test
    void aReplyTooLateToCountPausesTheNextTryAsLongAsItTookAtLeastAMillisecondAtMostAPoll() {
        assertThat(HoldClock.lateReplyPauseNanos(ms(40), 100)).isEqualTo(ms(40));
        assertThat(HoldClock.lateReplyPauseNanos(ms(400), 100)).isEqualTo(ms(100));
        assertThat(HoldClock.lateReplyPauseNanos(ms(100), 100)).isEqualTo(ms(100));
        assertThat(HoldClock.lateReplyPauseNanos(10, 100)).isEqualTo(ms(1));
        assertThat(HoldClock.lateReplyPauseNanos(-5, 100)).isEqualTo(ms(1));
        assertThat(HoldClock.lateReplyPauseNanos(ms(1) + 1, 100)).isEqualTo(ms(1) + 1);
    }

    @Test
    void aRenewalFallsDueAThirdIntoTheLeaseRoundedDownToAGridOfAHundredthOfThatPeriod() {
        // lease 30s: period 10s, grid 100ms
        assertThat(HoldClock.renewalDue(0, 30_000)).isEqualTo(ms(10_000));
        assertThat(HoldClock.renewalDue(ms(150) + 7, 30_000)).isEqualTo(ms(10_100));
        assertThat(HoldClock.renewalDue(ms(199), 30_000)).isEqualTo(ms(10_100));
        assertThat(HoldClock.renewalDue(ms(200), 30_000)).isEqualTo(ms(10_200));
        // on a negative clock reading too it rounds down, never up (a renewal late is worse than early)
        assertThat(HoldClock.renewalDue(-ms(10_050), 30_000)).isEqualTo(-ms(100));
        // two holds with the same lease sent within one grid step fall due together
        assertThat(HoldClock.renewalDue(T0, 30_000)).isEqualTo(HoldClock.renewalDue(T0 + ms(1), 30_000));
        // lease 3s: period 1s, grid 10ms
        assertThat(HoldClock.renewalDue(ms(15), 3_000)).isEqualTo(ms(1_010));
        // short leases: the grid is at least a millisecond, the period at least a millisecond
        assertThat(HoldClock.renewalDue(ms(5) + 300_000, 30)).isEqualTo(ms(15));
        assertThat(HoldClock.renewalDue(ms(5), 2)).isEqualTo(ms(6));
        for (long sent = T0; sent < T0 + ms(500); sent += 777_777) {
            long due = HoldClock.renewalDue(sent, 30_000);
            assertThat(due).isLessThanOrEqualTo(sent + ms(10_000)).isGreaterThan(sent + ms(9_900));
        }
    }

    @Test
    void aRenewalFailsAfterAQuarterOfTheLeaseAndIsTriedAgainATenthLaterAtMostASecond() {
        assertThat(HoldClock.renewalTimeoutNanos(30_000)).isEqualTo(ms(7_500));
        assertThat(HoldClock.renewalTimeoutNanos(3)).isEqualTo(ms(1));
        assertThat(HoldClock.retryDelayNanos(5_000)).isEqualTo(ms(500));
        assertThat(HoldClock.retryDelayNanos(30_000)).isEqualTo(ms(1_000));
        assertThat(HoldClock.retryDelayNanos(10_000)).isEqualTo(ms(1_000));
        assertThat(HoldClock.retryDelayNanos(5)).isEqualTo(ms(1));
    }

    @Test
    void aNoticeCountsFromTheLastTrysSendPlusTheTimeSinceOnTheStoresClockPlusTheClaimLessItsMargin() {
        // claim 1s (margin 12ms), handed over 40ms (store clock) after the waiter's last try
        assertThat(HoldClock.noticeValidUntil(T0, 40, 1_000)).isEqualTo(T0 + ms(40 + 1_000 - 12));
        assertThat(HoldClock.noticeValidUntil(T0, 0, 30_000)).isEqualTo(HoldClock.validUntil(T0, 30_000));
    }

    @Test
    void aNoticeIsTrustedWithoutAskingOnlyWhileHalfItsClaimIsLeft() {
        long claim = 1_000;
        long validUntil = T0 + ms(988);
        assertThat(HoldClock.trustsNotice(validUntil, claim, validUntil - ms(500))).isTrue();
        assertThat(HoldClock.trustsNotice(validUntil, claim, validUntil - ms(500) + 1)).isFalse();
        assertThat(HoldClock.trustsNotice(validUntil, claim, validUntil - ms(10))).isFalse();
        assertThat(HoldClock.trustsNotice(validUntil, claim, validUntil)).isFalse();
        assertThat(HoldClock.trustsNotice(validUntil, claim, validUntil + ms(1))).isFalse();
        assertThat(HoldClock.trustsNotice(validUntil, claim, T0)).isTrue();
    }

    @Test
    void aHandOffsClaimIsConfirmedAThirdIntoWhatIsLeftOfIt() {
        assertThat(HoldClock.confirmationDue(T0, T0 + ms(900))).isEqualTo(T0 + ms(300));
        assertThat(HoldClock.confirmationDue(T0, T0)).isEqualTo(T0);
        // a claim already run out is confirmed at once, never in the past
        assertThat(HoldClock.confirmationDue(T0, T0 - ms(900))).isEqualTo(T0);
    }

    @Test
    void aWaitersEntryLivesThePollIntervalPlusAsMuchAgainAtLeastHalfASecond() {
        assertThat(HoldClock.waiterTimeoutMillis(100)).isEqualTo(600);
        assertThat(HoldClock.waiterTimeoutMillis(500)).isEqualTo(1_000);
        assertThat(HoldClock.waiterTimeoutMillis(2_000)).isEqualTo(4_000);
    }

    @RepeatedTest(20)
    void aWaiterSleepsThePollIntervalLessUpToATenthOfJitter() {
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1_000, -1)).isBetween(ms(900), ms(1_000));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1_000, 5_000)).isBetween(ms(900), ms(1_000));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 9, -1)).isEqualTo(ms(9));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1, -1)).isEqualTo(ms(1));
    }

    @Test
    void aWaiterWakesWhenTheHoldersLeaseRunsOutIfThatComesBeforeItsPoll() {
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1_000, 5)).isEqualTo(ms(6));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 1_000, 0)).isEqualTo(ms(1));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 9, 3)).isEqualTo(ms(4));
        // a lease as long as the poll: the poll (less one for the jitter's bound) plus the millisecond after it
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 9, 9)).isEqualTo(ms(9));
        assertThat(HoldClock.pollPauseNanos(java.util.concurrent.ThreadLocalRandom.current(), 9, Long.MAX_VALUE)).isEqualTo(ms(9));
    }
}
