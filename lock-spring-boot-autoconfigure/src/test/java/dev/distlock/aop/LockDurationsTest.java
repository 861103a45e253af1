package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LockDurationsTest {

    @ParameterizedTest
    @CsvSource({ "0, PT0S", "250, PT0.25S", "500ms, PT0.5S", "5s, PT5S", "5S, PT5S", "2m, PT2M", "1h, PT1H",
            "1d, PT24H", "1500us, PT0.0015S", "7ns, PT0.000000007S", "-1s, PT-1S", "' 5s ', PT5S", "PT5S, PT5S",
            "pt1m30s, PT1M30S", "P1D, PT24H" })
    void readsTheFormsSpringBootAcceptsForDurations(String text, Duration expected) {
        assertThat(LockDurations.parse(text)).isEqualTo(expected);
    }

    @Test
    void refusesUnknownUnitsAndOtherText() {
        assertThatThrownBy(() -> LockDurations.parse("5 parsecs")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> LockDurations.parse("5w")).hasMessageContaining("unknown unit 'w'");
        assertThatThrownBy(() -> LockDurations.parse("PT5X")).hasMessageContaining("not an ISO-8601 duration");
        assertThatThrownBy(() -> LockDurations.parse("")).hasMessageContaining("is not a duration");
        assertThatThrownBy(() -> LockDurations.parse("999999999999999d")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("longer than a duration can be");
        assertThatThrownBy(() -> LockDurations.parse("99999999999999999999s"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
