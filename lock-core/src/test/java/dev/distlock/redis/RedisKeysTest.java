package dev.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

class RedisKeysTest {

    private final RedisKeys keys = new RedisKeys("distlock");

    @Test
    void aPlainNameIsReadableInTheKey() {
        assertThat(keys.lock("order:42")).isEqualTo("distlock:{order:42}");
        assertThat(new RedisKeys("").lock("x")).isEqualTo("{x}");
    }

    @Test
    void theKeysSentAreTheKeysInUtf8() {
        for (String name : List.of("plain", "a}b", "%", "\u00e9t\u00e9", "\uD83D\uDD12")) {
            byte[][] sent = new byte[3][];
            keys.encodeWithQueue(name, sent);
            String lock = keys.lock(name);
            assertThat(sent).as(name).isDeepEqualTo(new byte[][] {lock.getBytes(StandardCharsets.UTF_8),
                    (lock + ":queue").getBytes(StandardCharsets.UTF_8),
                    (lock + ":waiters").getBytes(StandardCharsets.UTF_8)});
        }
    }

    @Test
    void theKeysOfOneLockShareOneNonEmptyHashTagWhateverTheName() {
        for (String name : List.of("plain", "}leading", "a}b", "{x}", "%7D", "}", "tail{", "{}")) {
            byte[][] sent = new byte[3][];
            keys.encodeWithQueue(name, sent);
            String tag = hashTag(keys.lock(name));
            assertThat(tag).as(name).isNotEmpty();
            assertThat(List.of(hashTag(utf8(sent[1])), hashTag(utf8(sent[2])))).as(name).containsOnly(tag);
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
                .hasMessageContaining("must not contain '{' or '}'");
        assertThatThrownBy(() -> new RedisKeys(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
    }

    @Test
    void aPrefixThatIsNotValidUtf16IsRejectedWhereItIsGiven() {
        // each of these reaches Redis as "?": they would all lock ?:{x}
        for (String prefix : List.of("\uD800", "\uDC00", "a\uDBFF", "\uDC00\uD800")) {
            assertThatThrownBy(() -> RedisLockRegistry.builder(new LettuceConnectionFactory()).keyPrefix(prefix))
                    .as(prefix).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("must be valid UTF-16, found an unpaired surrogate at index");
            assertThat(RedisLockStores.keyPrefixProblem(prefix)).as(prefix).contains("valid UTF-16");
        }
        assertThat(new RedisKeys("\uD83D\uDD12").lock("x")).isEqualTo("\uD83D\uDD12:{x}");
        assertThat(RedisLockStores.keyPrefixProblem("\uD83D\uDD12")).isNull();
    }

    /** The part Redis Cluster hashes: between the first '{' and the next '}', or "" if there is none. */
    private static String hashTag(String key) {
        int open = key.indexOf('{');
        int close = open < 0 ? -1 : key.indexOf('}', open + 1);
        return close < 0 ? "" : key.substring(open + 1, close);
    }

    private static String utf8(byte[] key) {
        return new String(key, StandardCharsets.UTF_8);
    }
}
