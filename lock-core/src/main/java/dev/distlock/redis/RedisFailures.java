package dev.distlock.redis;

import dev.distlock.core.spi.StoreFailure;
import java.util.regex.Pattern;

/**
 * Tells from a failure of a Redis call whether the command was refused without running, left in doubt, or failed
 * for good: the rule behind {@link RedisLockStore#classify}. It reads Redis's replies and the client's exception
 * types along the cause chain, whatever Spring Data wraps them in.
 */
final class RedisFailures {

    private static final Pattern TRANSIENT_REPLY = Pattern.compile(
            "(TRYAGAIN|MOVED|ASK|CLUSTERDOWN|MASTERDOWN|LOADING|READONLY|NOREPLICAS|BUSY)\\b");
    private static final Pattern CONNECTION_LOST = Pattern.compile(
            "(?i)connection (closed|reset|refused)|broken pipe|unexpected end of stream");

    private RedisFailures() {
    }

    /**
     * Redis's replies that mean "try again soon" (a slot migrating or moved, a cluster or primary down, a replica
     * promoted or loading, a busy script) were refused without running, and so was a command the cluster client had
     * no node for (a slot without a known primary while a failover or reshard is seen, Lettuce's
     * {@code PartitionSelectorException}: it was never sent); too few replicas (the command ran) and lost or
     * timed-out connections leave the command in doubt.
     */
    static StoreFailure classify(RuntimeException failure) {
        StoreFailure kind = StoreFailure.PERMANENT;
        Throwable cause = failure;
        for (int depth = 0; cause != null && depth < 32; depth++, cause = cause.getCause()) {
            String message = cause.getMessage() != null ? cause.getMessage() : "";
            String type = cause.getClass().getSimpleName();
            if (TRANSIENT_REPLY.matcher(message).lookingAt() && !message.startsWith("NOREPLICAS")
                    || type.equals("PartitionSelectorException")) {
                return StoreFailure.REFUSED;
            }
            if (TRANSIENT_REPLY.matcher(message).lookingAt() || cause instanceof java.io.IOException
                    || cause instanceof java.util.concurrent.TimeoutException || type.contains("Timeout")
                    || type.contains("ConnectionFailure") || type.contains("Redirect")
                    || type.equals("RedisConnectionException") || type.equals("JedisConnectionException")
                    || CONNECTION_LOST.matcher(message).find()) {
                kind = StoreFailure.IN_DOUBT;
            }
        }
        return kind;
    }
}
