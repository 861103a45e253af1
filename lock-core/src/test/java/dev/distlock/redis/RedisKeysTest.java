package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class RedisKeysTest {

    private final RedisKeys keys = new RedisKeys("distlock");

    @Test
    void aPlainNameIsReadableInTheKey() {
        assertThat(keys.lock("order:42")).isEqualTo("distlock:{order:42}");
        assertThat(keys.fence("distlock:{order:42}")).isEqualTo("distlock:{order:42}:fence");
        assertThat(new RedisKeys("").lock("x")).isEqualTo("{x}");
    }

    @Test
    void theKeysOfOneLockShareOneNonEmptyHashTagWhateverTheName() {
        for (String name : List.of("plain", "}leading", "a}b", "{x}", "%7D", "}", "tail{", "{}")) {
            String lock = keys.lock(name);
            String tag = hashTag(lock);
            assertThat(tag).as(name).isNotEmpty();
            assertThat(List.of(hashTag(keys.fence(lock)), hashTag(keys.queue(lock)))).as(name).containsOnly(tag);
        }
    }

    @Test
    void distinctNamesGetDistinctKeys() {
        assertThat(keys.lock("a}b")).isNotEqualTo(keys.lock("a%7Db"));
        assertThat(keys.lock("%")).isNotEqualTo(keys.lock("%25"));
    }

    @Test
    void aPrefixWithBracesIsRejected() {
        assertThatThrownBy(() -> new RedisKeys("bad{")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null nor contain '{' or '}'");
    }

    /** The part Redis Cluster hashes: between the first '{' and the next '}', or "" if there is none. */
    private static String hashTag(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        return close < 0 ? "" : key.substring(open + 1, close);
    }
}
