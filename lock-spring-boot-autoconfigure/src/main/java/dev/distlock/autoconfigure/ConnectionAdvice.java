package dev.distlock.autoconfigure;

import io.lettuce.core.ReadFrom;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.util.ClassUtils;

/**
 * Warns once, at startup, about Redis client settings that undermine the lock: a command timeout longer than
 * a third of the lease (a call can then block longer than a renewal period), reads from replicas (a lock's
 * state must come from the primary), and a Redis Cluster client that never refreshes its topology (it keeps
 * sending to a failed or moved primary).
 */
final class ConnectionAdvice {

    private static final Logger log = LoggerFactory.getLogger(ConnectionAdvice.class);

    private static final boolean LETTUCE = ClassUtils.isPresent("io.lettuce.core.RedisClient",
            ConnectionAdvice.class.getClassLoader());
    private static final boolean JEDIS = ClassUtils.isPresent("redis.clients.jedis.Jedis",
            ConnectionAdvice.class.getClassLoader());

    private ConnectionAdvice() {
    }

    /** Logs one warning listing what is wrong with {@code factory}'s settings for locks, if anything. */
    static void warnAbout(RedisConnectionFactory factory, DistlockProperties properties) {
        List<String> advice = adviceFor(factory, properties.getLease());
        if (!advice.isEmpty()) {
            log.warn("distlock: the Redis connection is configured in ways that weaken the locks:\n - {}",
                    String.join("\n - ", advice));
        }
    }

    /** What is wrong with {@code factory}'s settings for locks with {@code lease}; empty if nothing. */
    static List<String> adviceFor(RedisConnectionFactory factory, Duration lease) {
        List<String> advice = new ArrayList<>();
        if (LETTUCE) {
            Lettuce.advise(factory, lease, advice);
        }
        if (JEDIS) {
            Jedis.advise(factory, lease, advice);
        }
        return advice;
    }

    private static void adviseTimeout(Duration commandTimeout, Duration lease, String property, List<String> advice) {
        if (commandTimeout != null && commandTimeout.compareTo(lease.dividedBy(3)) > 0) {
            advice.add("the command timeout (" + property + " = " + commandTimeout + ") is longer than a third of "
                    + "distlock.lease (" + lease + "): a call may block that long when Redis hangs, and renewals "
                    + "give up after a quarter of the lease anyway; set " + property + " well below "
                    + lease.dividedBy(3));
        }
    }

    /** Kept apart so that nothing of Lettuce is loaded where it is absent. */
    private static final class Lettuce {

        static void advise(RedisConnectionFactory factory, Duration lease, List<String> advice) {
            if (!(factory instanceof LettuceConnectionFactory lettuce)) {
                return;
            }
            adviseTimeout(lettuce.getClientConfiguration().getCommandTimeout(), lease, "spring.data.redis.timeout",
                    advice);
            lettuce.getClientConfiguration().getReadFrom()
                    .filter(readFrom -> readFrom != ReadFrom.UPSTREAM && readFrom != ReadFrom.MASTER)
                    .ifPresent(readFrom -> advice.add("reads go to " + readFrom + " (spring.data.redis.lettuce.read-from "
                            + "or a customizer): locks are read and written on the primary only, but a replica "
                            + "read elsewhere can see an older state; prefer reading from the primary"));
            if (lettuce.isClusterAware() && !refreshesTopology(lettuce)) {
                advice.add("the Redis Cluster client never refreshes its topology: after a failover or a slot "
                        + "migration it keeps sending lock commands to the old node; set "
                        + "spring.data.redis.lettuce.cluster.refresh.adaptive=true and "
                        + "spring.data.redis.lettuce.cluster.refresh.period=30s");
            }
        }

        private static boolean refreshesTopology(LettuceConnectionFactory lettuce) {
            return lettuce.getClientConfiguration().getClientOptions()
                    .filter(ClusterClientOptions.class::isInstance)
                    .map(options -> ((ClusterClientOptions) options).getTopologyRefreshOptions())
                    .map(ConnectionAdvice.Lettuce::refreshes)
                    .orElse(false);
        }

        private static boolean refreshes(ClusterTopologyRefreshOptions refresh) {
            return refresh.isPeriodicRefreshEnabled() || !refresh.getAdaptiveRefreshTriggers().isEmpty();
        }
    }

    /** Kept apart so that nothing of Jedis is loaded where it is absent. */
    private static final class Jedis {

        static void advise(RedisConnectionFactory factory, Duration lease, List<String> advice) {
            if (factory instanceof JedisConnectionFactory jedis) {
                adviseTimeout(jedis.getClientConfiguration().getReadTimeout(), lease, "spring.data.redis.timeout",
                        advice);
            }
        }
    }
}
