package dev.distlock.redlock;

import dev.distlock.core.Lease;
import dev.distlock.core.spi.LockStore;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.core.support.StoreLockRegistry;
import dev.distlock.redis.RedisLockStores;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Distributed locks over N independent Redis servers with the Redlock algorithm: a lock is held when a
 * majority of the servers granted it, within a validity of lease − time taken − drift (1% of the lease + 2 ms),
 * and renewals need a majority too. It survives the loss of a minority of the servers (2 of 5), unlike one
 * Redis, and needs no replication. The same {@link dev.distlock.core.FencedLock} API, listeners, meters and
 * annotation support as {@link dev.distlock.redis.RedisLockRegistry}.
 *
 * <pre>{@code
 * RedlockLockRegistry registry = RedlockLockRegistry.builder(List.of(factory1, factory2, factory3)).build();
 * }</pre>
 *
 * <p>What differs from one Redis: waiters poll (with jitter) instead of being handed the lock, so there is no
 * arrival order, and an acquisition takes two round trips (the second writes the chosen fencing token back
 * to the servers of the majority that issued smaller ones). Fencing tokens grow across holders whatever the
 * servers' clocks say, as long as no server forgets what it granted. A server restarted without persistence
 * does forget, and can help grant a lock twice: restart it no sooner than the longest lease after a crash, or
 * run it with {@code appendfsync always}. Redlock also assumes bounded clock drift and process pauses, like
 * every lease-based lock.
 *
 * @since 0.1.0
 */
public final class RedlockLockRegistry extends StoreLockRegistry {

    private final String keyPrefix;

    private RedlockLockRegistry(LockStore store, Builder builder) {
        super(store, builder);
        this.keyPrefix = builder.keyPrefix;
    }

    /** The key that holds the owner token of lock {@code name} on every server. */
    public String keyOf(String name) {
        return RedisLockStores.keyOf(keyPrefix, name);
    }

    /**
     * Starts a registry over the given independent Redis servers (an odd number, at least 3), each an
     * initialized and started connection factory the caller keeps (and closes after the registry).
     */
    public static Builder builder(List<? extends RedisConnectionFactory> nodes) {
        return new Builder(nodes);
    }

    /** Builds a {@link RedlockLockRegistry}. */
    public static final class Builder extends LockRegistryBuilder<Builder> {

        private final List<RedisConnectionFactory> nodes;
        private String keyPrefix = "distlock";
        private Duration fenceRetention = Duration.ofHours(1);
        private Duration nodeTimeout = Duration.ofMillis(100);

        private Builder(List<? extends RedisConnectionFactory> nodes) {
            Objects.requireNonNull(nodes, "nodes");
            if (nodes.size() < 3 || nodes.size() % 2 == 0) {
                throw new IllegalArgumentException("Redlock needs an odd number of independent Redis servers, at "
                        + "least 3 (typically 3 or 5), got " + nodes.size());
            }
            nodes.forEach(node -> Objects.requireNonNull(node, "node"));
            Set<RedisConnectionFactory> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
            if (!nodes.stream().allMatch(distinct::add)) {
                throw new IllegalArgumentException("Redlock needs independent Redis servers, but one connection "
                        + "factory is given more than once: a majority of the nodes could be a single server");
            }
            this.nodes = new ArrayList<>(nodes);
        }

        /**
         * The prefix of every key on every server (default {@code distlock}); it must not contain a brace
         * (<code>&#123;</code> or <code>&#125;</code>).
         */
        public Builder keyPrefix(String keyPrefix) {
            RedisLockStores.checkKeyPrefix(keyPrefix);
            this.keyPrefix = keyPrefix;
            return this;
        }

        /** How long each server keeps a freed name's last fencing token after its release (default 1h). */
        public Builder fenceRetention(Duration retention) {
            Lease.checkedExpiryMillis(retention, "fenceRetention");
            this.fenceRetention = retention;
            return this;
        }

        /**
         * How long one call to one server may take before that server counts as not answering (default 100ms,
         * 1ms to 10s): small against the lease, so a dead server costs little of the validity.
         */
        public Builder nodeTimeout(Duration timeout) {
            Objects.requireNonNull(timeout, "nodeTimeout");
            if (timeout.toMillis() < 1 || timeout.compareTo(Duration.ofSeconds(10)) > 0) {
                throw new IllegalArgumentException("nodeTimeout must be between 1ms and 10s, got " + timeout);
            }
            this.nodeTimeout = timeout;
            return this;
        }

        /** Creates the registry. */
        public RedlockLockRegistry build() {
            List<LockStore> stores = nodes.stream()
                    .map(node -> RedisLockStores.withoutNotices(node, keyPrefix, fenceRetention)).toList();
            return new RedlockLockRegistry(new RedlockLockStore(stores, nodeTimeout), this);
        }
    }
}
