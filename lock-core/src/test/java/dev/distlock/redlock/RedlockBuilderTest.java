package dev.distlock.redlock;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** The servers a Redlock registry is built on: an odd number, at least 3, each its own; nothing connects here. */
class RedlockBuilderTest {

    private final RedisConnectionFactory a = new LettuceConnectionFactory();
    private final RedisConnectionFactory b = new LettuceConnectionFactory();
    private final RedisConnectionFactory c = new LettuceConnectionFactory();

    @Test
    void threeDistinctServersAreAccepted() {
        assertThatCode(() -> RedlockLockRegistry.builder(List.of(a, b, c))).doesNotThrowAnyException();
    }

    @Test
    void tooFewOrAnEvenNumberOfServersIsRefusedSayingWhatIsNeeded() {
        assertThatThrownBy(() -> RedlockLockRegistry.builder(List.of(a, b)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("an odd number")
                .hasMessageContaining("at least 3").hasMessageContaining("got 2");
        assertThatThrownBy(() -> RedlockLockRegistry.builder(List.of(a, b, c, new LettuceConnectionFactory())))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("got 4");
    }

    @Test
    void theSameServerGivenTwiceIsRefusedAsNotIndependent() {
        assertThatThrownBy(() -> RedlockLockRegistry.builder(List.of(a, b, a)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("independent Redis servers")
                .hasMessageContaining("more than once");
    }
}
