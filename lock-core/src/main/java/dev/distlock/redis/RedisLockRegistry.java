package dev.distlock.redis;

import dev.distlock.core.Lease;
import dev.distlock.core.support.LockNames;
import dev.distlock.core.support.LockRegistryBuilder;
import dev.distlock.core.support.StoreLockRegistry;
import java.time.Duration;
import java.util.Objects;
import java.util.UUID;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.SyncTaskExecutor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

/**
 * Distributed locks on Redis through Spring Data Redis (Lettuce or Jedis).
 *
 * <pre>{@code
 * RedisLockRegistry registry = RedisLockRegistry.builder(connectionFactory).keyPrefix("orders").build();
 * }</pre>
 *
 * <p>A lock named {@code n} is the key {@code <prefix>:{n}}. Its value holds the owner token of the current hold
 * and its fencing token; a release leaves it in place, marked free, with the last fencing token (kept for
 * {@code fenceRetention}, so the next token is larger whatever the clock says). Only while some process waits,
 * {@code <prefix>:{n}:queue} and {@code <prefix>:{n}:waiters} hold the waiters, first come first served. All three
 * share the hash tag, so they sit in one Redis Cluster slot. Inside the tag {@code %} and {@code }} are
 * written {@code %25} and {@code %7D}. Names may hold any character, up to {@value LockNames#MAX_LENGTH}
 * of them.
 *
 * <p>An uncontended lock and unlock costs two round trips and seven Redis commands on Redis 7 and Valkey (eight on
 * 6.x for a name freed before): one call to acquire ({@code TIME}, {@code SET NX PX GET}, then a {@code SET} when
 * the freed lock kept its last token or an {@code EXISTS} of the queue for a name without a key), one to release
 * ({@code GET} to compare, {@code SET} to free). On Redis 7 and Valkey over a shared Lettuce connection they are
 * functions of one library ({@code FCALL}), elsewhere scripts ({@code EVALSHA}). A
 * release with waiters queued hands the lock to the first of them and tells its process on that registry's
 * own channel {@code <prefix>:granted:<random id>} (subscribed at the registry's first wait, on one pub/sub
 * connection); the new owner starts without another round trip.
 *
 * <p>Close the registry when done; holds still open then expire with their leases.
 */
public final class RedisLockRegistry extends StoreLockRegistry {

    /** The oldest Redis server version the scripts run on (Valkey 7.2 and later work too). */
    public static final String MINIMUM_SERVER_VERSION = "6.0.0";

    private final RedisKeys keys;

    private RedisLockRegistry(Builder builder, RedisKeys keys) {
        super(builder.createStore(keys), builder);
        this.keys = keys;
    }

    /** Starts a registry on the given connection factory (which must be initialized and started). */
    public static Builder builder(RedisConnectionFactory connectionFactory) {
        return new Builder(connectionFactory);
    }

    /**
     * The pattern of the pub/sub channels where this registry's waiters hear of hand-offs:
     * {@code <prefix>:granted:*}. A Redis user needs PUBLISH and SUBSCRIBE rights on it for hand-offs to
     * be heard at once; without them waiters still get the lock at their next poll.
     */
    public String handOffChannelPattern() {
        return keys.inbox("*");
    }

    /** The Redis key that holds the owner token of lock {@code name}. */
    public String keyOf(String name) {
        return keys.lock(LockNames.validate(name));
    }

    /** Builds a {@link RedisLockRegistry}. */
    public static final class Builder extends LockRegistryBuilder<Builder> {

        private final RedisConnectionFactory connectionFactory;
        private String keyPrefix = "distlock";
        private Duration fenceRetention = Duration.ofHours(1);
        private RedisMessageListenerContainer listenerContainer;
        private ReplicaAcks replicaAcks = ReplicaAcks.CONNECTED_DEFAULT;

        private Builder(RedisConnectionFactory connectionFactory) {
            this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        }

        /**
         * The prefix of every key (default {@code distlock}); a colon separates it from the rest. Empty for
         * none. It must not contain a brace (<code>&#123;</code> or <code>&#125;</code>).
         */
        public Builder keyPrefix(String keyPrefix) {
            new RedisKeys(keyPrefix);
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * How long a freed name keeps its last fencing token after its release (default 1h,
         * between 1ms and 365 days). Each token is the larger of the kept one plus one and the Redis server
         * clock in microseconds, so tokens grow while it is kept, and after it is gone as long as the server
         * clock was not set back below an earlier token. A release whose reply was lost, sent again after a
         * reconnect, finds that its first run released the hold, whoever held the name since, until the name stays
         * free this long (or a later hold runs out, or the key is deleted).
         */
        public Builder fenceRetention(Duration retention) {
            Lease.checkedExpiryMillis(retention, "fenceRetention");
            this.fenceRetention = retention;
            return this;
        }

        /**
         * A listener container to share (e.g. the application's), running now or started later by its
         * owner (the registry's subscription starts with it); by default the registry creates, starts and
         * closes its own, on one pub/sub connection.
         */
        public Builder listenerContainer(RedisMessageListenerContainer container) {
            this.listenerContainer = Objects.requireNonNull(container, "listenerContainer");
            return this;
        }

        /**
         * Makes acquisitions, hand-offs and renewals count only once {@code replicas} replicas have
         * acknowledged them ({@code WAIT replicas timeout}, pipelined with the script on a dedicated connection,
         * so it blocks no other thread's commands); a shortfall is a transient failure, tried again within the
         * caller's wait (a renewal, until the hold's deadline), so locking stops while fewer replicas answer.
         * With it, a primary that fails right after granting a lock cannot leave its replica unaware of it, and a
         * primary cut off from its replicas cannot keep renewing a lock the promoted replica lets expire. It
         * costs a dedicated connection per call (kept open between calls) and up to {@code timeout} per call when
         * a replica lags. Standalone primaries with replicas and Sentinel only; not Redis Cluster. By default
         * the replicas online at the time acknowledge ({@link #connectedReplicaAcknowledgement}); 0 turns
         * acknowledgement off.
         *
         * @param replicas how many replicas must acknowledge, 0 for none
         * @param timeout how long to wait for them, 1ms to 10s (ignored with 0 replicas)
         */
        public Builder replicaAcknowledgement(int replicas, Duration timeout) {
            ReplicaAcks acks = ReplicaAcks.of(replicas, timeout);
            if (acks.fixed() && ClusterDetection.isCluster(connectionFactory)) {
                throw new IllegalArgumentException("replicaAcknowledgement is not supported on Redis Cluster: WAIT "
                        + "cannot be sent to the primary of a lock's slot through Spring Data Redis's cluster "
                        + "connection; use it with a standalone or Sentinel connection factory");
            }
            this.replicaAcks = acks;
            return this;
        }

        /**
         * Makes acquisitions, hand-offs and renewals count only once the replicas the primary has online at the
         * time have acknowledged them, waiting up to {@code timeout} for them (the default, with 50ms). The
         * replicas online are read from {@code INFO replication} every second: a replica is online while its link
         * is up and it acknowledged within the last two seconds, and the count is the most online in the last ten
         * seconds' readings. So a server without replicas pays nothing (every call goes straight to Redis), a
         * primary whose replica was just promoted away by a failover stops granting and renewing until it is
         * demoted, and a replica that stopped answering or went away stops holding locking up after about twelve
         * seconds (from then on a failover to it can forget the grants made since). A write fewer of them
         * acknowledged in time is a transient failure, tried again within the caller's wait, as with
         * {@link #replicaAcknowledgement(int, Duration) a fixed number}. On Redis Cluster
         * no replica acknowledges (its {@code WAIT} cannot be routed to a lock's primary). The Redis user needs
         * {@code +info}; without it no replica is waited for (logged once).
         *
         * @param timeout how long each write waits for the replicas, 1ms to 10s
         */
        public Builder connectedReplicaAcknowledgement(Duration timeout) {
            this.replicaAcks = ReplicaAcks.connected(timeout);
            return this;
        }

        /** Creates the registry. */
        public RedisLockRegistry build() {
            return new RedisLockRegistry(this, new RedisKeys(keyPrefix));
        }

        private RedisLockStore createStore(RedisKeys keys) {
            boolean ownContainer = listenerContainer == null;
            RedisMessageListenerContainer container = ownContainer ? newContainer() : listenerContainer;
            ReplicaCount replicas = new ReplicaCount(replicaAcks, connectionFactory);
            GrantInbox inbox = new GrantInbox(container, ownContainer, keys.inbox(UUID.randomUUID().toString()),
                    replicas::trusted);
            return new RedisLockStore(connectionFactory, keys, inbox, fenceRetention.toMillis(), replicas);
        }

        private RedisMessageListenerContainer newContainer() {
            RedisMessageListenerContainer container = new RedisMessageListenerContainer();
            container.setConnectionFactory(connectionFactory);
            // notices only release a semaphore: run them on the connection's thread, no thread per message
            container.setTaskExecutor(new SyncTaskExecutor());
            SimpleAsyncTaskExecutor subscriptions = new SimpleAsyncTaskExecutor("distlock-pubsub-");
            subscriptions.setDaemon(true);
            container.setSubscriptionExecutor(subscriptions);
            container.afterPropertiesSet();
            container.start();
            return container;
        }
    }
}
