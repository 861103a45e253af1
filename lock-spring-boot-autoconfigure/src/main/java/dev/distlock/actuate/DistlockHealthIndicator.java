package dev.distlock.actuate;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;

/**
 * Health of distributed locking: {@code UP} when Redis runs a Lua script that calls a command (every lock
 * operation is such a script), {@code DOWN} with the error otherwise. When {@code UP}, the details tell
 * Redis's {@code maxmemory-policy} and warn if it can evict lock keys (see {@link MaxmemoryPolicy}); a
 * policy that cannot be read (the command is not permitted) is said in a detail, not counted as a failure.
 *
 * <p>It writes no key, so it neither disturbs locks nor needs write permission; scripts it runs are not
 * cached by SHA, which is what a probe wants.
 */
public class DistlockHealthIndicator extends AbstractHealthIndicator {

    /** Calls a command from Lua, as the lock scripts do, and answers 1. */
    private static final byte[] PROBE = "redis.call('PING') return 1".getBytes(StandardCharsets.UTF_8);

    private final RedisConnectionFactory connectionFactory;

    /**
     * Checks the Redis behind {@code connectionFactory}.
     *
     * @param connectionFactory the connection factory the lock registry uses
     */
    public DistlockHealthIndicator(RedisConnectionFactory connectionFactory) {
        super("Distributed lock health check failed");
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        try (RedisConnection connection = connectionFactory.getConnection()) {
            probe(connection);
            builder.up();
            MaxmemoryPolicy.read(connection.serverCommands()).describe(builder);
        }
    }

    private static void probe(RedisConnection connection) {
        Long answer;
        try {
            answer = connection.scriptingCommands().eval(PROBE, ReturnType.INTEGER, 0);
        } catch (RuntimeException ex) {
            // Spring's translated exceptions often say only "Error in execution": the root cause says why
            throw new IllegalStateException("Redis did not run the Lua probe: " + rootCause(ex), ex);
        }
        if (answer == null || answer != 1L) {
            throw new IllegalStateException("The Lua probe answered " + answer + " instead of 1");
        }
    }

    /** The innermost cause, as {@code class: message}. */
    static String rootCause(Throwable failure) {
        return NestedExceptionUtils.getMostSpecificCause(failure).toString();
    }
}
