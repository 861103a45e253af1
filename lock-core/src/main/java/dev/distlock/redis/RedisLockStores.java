package dev.distlock.redis;

import dev.distlock.core.Lease;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.support.LockNames;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * The Redis lock store as a building block for registries over several Redis servers (Redlock): the same
 * scripts, keys and fencing rule as {@link RedisLockRegistry}, without hand-off notices (waiters of such a
 * registry poll).
 *
 * @since 0.1.0
 */
public final class RedisLockStores {

    private RedisLockStores() {
    }

    /**
     * A store on one Redis server that never subscribes to hand-off notices.
     *
     * @param keyPrefix the prefix of every key (see {@link RedisLockRegistry.Builder#keyPrefix})
     * @param fenceRetention how long a freed name keeps its last fencing token after its release
     */
    public static LockStore withoutNotices(RedisConnectionFactory connectionFactory, String keyPrefix,
            Duration fenceRetention) {
        Objects.requireNonNull(connectionFactory, "connectionFactory");
        RedisKeys keys = new RedisKeys(keyPrefix);
        GrantInbox unheard = new GrantInbox(new RedisMessageListenerContainer(), false,
                keys.inbox(UUID.randomUUID().toString()), () -> true);
        return new RedisLockStore(connectionFactory, keys, unheard,
                Lease.checkedExpiryMillis(fenceRetention, "fenceRetention"));
    }

    /**
     * The key that holds the owner token of lock {@code name} under {@code keyPrefix}, as
     * {@link RedisLockRegistry#keyOf}.
     *
     * @throws IllegalArgumentException if the prefix contains '{' or '}', or the name is not a valid lock name
     */
    public static String keyOf(String keyPrefix, String name) {
        return new RedisKeys(keyPrefix).lock(LockNames.validate(name));
    }

    /** Checks a key prefix (see {@link RedisLockRegistry.Builder#keyPrefix}). */
    public static void checkKeyPrefix(String keyPrefix) {
        new RedisKeys(keyPrefix);
    }

    /**
     * What is wrong with a key prefix, as a phrase starting with "must", or {@code null} if it can prefix lock keys:
     * no brace (it would change the Redis Cluster hash tag), valid UTF-16.
     */
    public static String keyPrefixProblem(String keyPrefix) {
        return RedisKeys.prefixProblem(keyPrefix);
    }
}
