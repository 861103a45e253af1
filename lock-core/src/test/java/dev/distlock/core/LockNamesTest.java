package dev.distlock.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.core.support.LockNames;
import org.junit.jupiter.api.Test;

class LockNamesTest {

    @Test
    void anyValidUtf16UpToTheMaximumIsAName() {
        for (String name : new String[] {"a", "with space", "line\nbreak", "*?[]{}", "🔒 lock", "x".repeat(1024)}) {
            assertThat(LockNames.validate(name)).isEqualTo(name);
        }
    }

    @Test
    void emptyTooLongAndMalformedNamesAreRejectedWithTheRule() {
        assertThatThrownBy(() -> LockNames.validate(null)).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("must not be null or empty");
        assertThatThrownBy(() -> LockNames.validate("x".repeat(1025))).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("at most 1024 characters, this one has 1025");
        assertThatThrownBy(() -> LockNames.validate("\uDC00tail")).isInstanceOf(InvalidLockNameException.class)
                .hasMessageContaining("unpaired surrogate at index 0");
    }

    @Test
    void longNamesAreAbbreviatedInTheMessage() {
        assertThatThrownBy(() -> LockNames.validate("y".repeat(5000)))
                .satisfies(error -> assertThat(error.getMessage()).hasSizeLessThan(200))
                .extracting(error -> ((InvalidLockNameException) error).getLockName()).asString().hasSize(5000);
    }
}
