package dev.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class LeaseTest {

    @Test
    void theDefaultLeaseIsRenewedAndTakesTheRegistryLength() {
        assertThat(Lease.renewed().isRenewed()).isTrue();
        assertThat(Lease.renewed().durationOr(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void explicitLeasesKeepTheirLength() {
        assertThat(Lease.fixed(Duration.ofSeconds(5)).isRenewed()).isFalse();
        assertThat(Lease.fixed(Duration.ofSeconds(5)).durationOr(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(5));
        assertThat(Lease.renewed(Duration.ofSeconds(9)).durationOr(Duration.ofSeconds(30))).isEqualTo(Duration.ofSeconds(9));
        assertThat(Lease.fixed(Duration.ofSeconds(5))).isEqualTo(Lease.fixed(Duration.ofSeconds(5)))
                .isNotEqualTo(Lease.renewed(Duration.ofSeconds(5)));
    }

    @Test
    void leasesShorterThanTheMinimumAreRejectedSayingWhatIsAllowedAndWhy() {
        assertThatThrownBy(() -> Lease.fixed(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 100ms and 365 days");
        for (Duration tooShort : new Duration[] {Duration.ofMillis(1), Duration.ofMillis(2), Duration.ofMillis(20),
                Lease.MIN.minusNanos(1)}) {
            assertThatThrownBy(() -> Lease.fixed(tooShort)).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("A lease must be between 100ms and 365 days")
                    .hasMessageContaining("too little time to count").hasMessageEndingWith("got " + tooShort);
        }
        assertThat(Lease.fixed(Lease.MIN).durationOr(null)).isEqualTo(Duration.ofMillis(100));
        assertThatThrownBy(() -> Lease.renewed(Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lease.renewed(Duration.ofMillis(299))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 300ms and 365 days").hasMessageContaining("renewed every third");
    }

    @Test
    void leasesLongerThanAYearAreRejectedWithAMessageNotAnOverflow() {
        assertThatThrownBy(() -> Lease.fixed(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 100ms and 365 days")
                .hasMessageContaining("A lease").hasMessageNotContaining("too little time");
        assertThatThrownBy(() -> Lease.renewed(Duration.ofDays(366))).isInstanceOf(IllegalArgumentException.class);
        assertThat(Lease.fixed(Lease.MAX).durationOr(null)).isEqualTo(Duration.ofDays(365));
    }

    @Test
    void aTimeTheBackendKeepsAKeyNoHoldCountsOnMayBeAsShortAsAMillisecond() {
        assertThat(Lease.checkedExpiryMillis(Duration.ofMillis(1), "fenceRetention")).isOne();
        assertThatThrownBy(() -> Lease.checkedExpiryMillis(Duration.ofNanos(999_999), "fenceRetention"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fenceRetention must be between 1ms and 365 days, got PT0.000999999S");
    }
}
