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
    void leasesShorterThanOneMillisecondAreRejected() {
        assertThatThrownBy(() -> Lease.fixed(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 1ms and 365 days");
        assertThatThrownBy(() -> Lease.renewed(Duration.ofMillis(-5))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Lease.renewed(Duration.ofMillis(299))).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("between 300ms and 365 days").hasMessageContaining("renewed every third");
    }

    @Test
    void leasesLongerThanAYearAreRejectedWithAMessageNotAnOverflow() {
        assertThatThrownBy(() -> Lease.fixed(Duration.ofSeconds(Long.MAX_VALUE)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("between 1ms and 365 days")
                .hasMessageContaining("A lease");
        assertThatThrownBy(() -> Lease.renewed(Duration.ofDays(366))).isInstanceOf(IllegalArgumentException.class);
        assertThat(Lease.fixed(Lease.MAX).durationOr(null)).isEqualTo(Duration.ofDays(365));
    }
}
