package dev.distlock.boot3;

import dev.distlock.actuate.DistlockHealth;
import dev.distlock.actuate.HealthCheck;
import java.util.Objects;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code distlock} health indicator of Spring Boot 3: reports what a {@link HealthCheck} finds, like
 * {@code DistlockHealthIndicator} does on Spring Boot 4. Compiled against Spring Boot 3.5, loaded only where
 * Spring Boot 3 is.
 *
 * @since 0.1.0
 */
public class Boot3DistlockHealthIndicator extends AbstractHealthIndicator {

    private final HealthCheck check;

    /**
     * Reports what {@code check} finds: {@code DistlockHealthCheck} for one Redis, {@code RedlockHealthCheck}
     * for Redlock's servers.
     */
    public Boot3DistlockHealthIndicator(HealthCheck check) {
        super("Distributed lock health check failed");
        this.check = Objects.requireNonNull(check, "check");
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        DistlockHealth health = check.check();
        (health.up() ? builder.up() : builder.down()).withDetails(health.details());
    }
}
