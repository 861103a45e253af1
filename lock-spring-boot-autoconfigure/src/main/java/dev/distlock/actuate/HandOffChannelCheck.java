package dev.distlock.actuate;

import java.nio.charset.StandardCharsets;
import org.springframework.data.redis.connection.RedisConnection;

/**
 * Whether this Redis user may publish on the registry's hand-off channels ({@code <key-prefix>:granted:*}):
 * a release that hands the lock to a waiter of another process publishes there, inside the release script,
 * and fails as a whole when the user may not. Asks {@code ACL DRYRUN <user> PUBLISH <channel> x} (Redis 7+,
 * and only if the user may run {@code ACL}); otherwise publishes for real to a channel under that pattern
 * that nobody subscribes.
 *
 * @param channel a channel under the hand-off pattern that no registry listens on
 */
record HandOffChannelCheck(String channel) {

    /** Why publishing is refused, or {@code null} when it is allowed; {@code method} says how it was found. */
    record Result(String refusedBecause, String method) {
    }

    Result run(RedisConnection connection) {
        String dryRun = dryRun(connection);
        if (dryRun != null) {
            return new Result(dryRun.equals("OK") ? null : dryRun, "ACL DRYRUN");
        }
        try {
            connection.publish(bytes(channel), bytes("health-check"));
            return new Result(null, "PUBLISH");
        } catch (RuntimeException ex) {
            if (HealthFailures.isNoPermission(ex)) {
                return new Result(HealthFailures.rootCause(ex), "PUBLISH");
            }
            throw ex;
        }
    }

    /** What {@code ACL DRYRUN} says, or {@code null} if it cannot be asked (older Redis, no permission). */
    private String dryRun(RedisConnection connection) {
        try {
            String user = text(connection.execute("ACL", bytes("WHOAMI")));
            return text(connection.execute("ACL", bytes("DRYRUN"), bytes(user), bytes("PUBLISH"), bytes(channel),
                    bytes("x")));
        } catch (RuntimeException notAvailable) {
            return null;
        }
    }

    /** A reply as text: clients answer status and bulk replies as bytes or strings. */
    private static String text(Object reply) {
        return reply instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(reply);
    }

    private static byte[] bytes(String value) {
        return value.getBytes(StandardCharsets.UTF_8);
    }
}
