package dev.distlock.actuate;

import java.util.Objects;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * The {@code distlock} health indicator of Spring Boot 4: reports what {@link DistlockHealthCheck} finds
 * (DOWN with the reason under {@code error} when locking cannot work; UP with the server version, role and
 * eviction policy otherwise). Spring Boot 3 applications get the same from
 * {@code Boot3DistlockHealthIndicator}.
 */
public class DistlockHealthIndicator extends AbstractHealthIndicator {

    private final HealthCheck check;

    /**
     * Checks the Redis behind {@code connectionFactory} for a registry with the default key prefix.
     *
     * @param connectionFactory the connection factory the lock registry uses
     */
    public DistlockHealthIndicator(RedisConnectionFactory connectionFactory) {
        this(new DistlockHealthCheck(connectionFactory, DistlockHealthCheck.channelPrefixOf("distlock")));
    }

    /**
     * Reports what {@code check} finds: {@link DistlockHealthCheck} for one Redis, {@link RedlockHealthCheck}
     * for Redlock's servers.
     *
     * @since 0.1.0
     */
    public DistlockHealthIndicator(HealthCheck check) {
        super("Distributed lock health check failed");
        this.check = Objects.requireNonNull(check, "check");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        DistlockHealth health = check.check();
        (health.up() ? builder.up() : builder.down()).withDetails(health.details());
    }
}
