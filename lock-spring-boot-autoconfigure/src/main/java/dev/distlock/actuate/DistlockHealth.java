package dev.distlock.actuate;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What the distlock health check found, in terms of no Spring Boot generation: each generation's health
 * indicator turns it into its own {@code Health}.
 *
 * @param up whether locking can work
 * @param details what was found: the reason under {@code error} when down; server version, role and eviction
 *        policy when up
 * @since 0.1.0
 */
public record DistlockHealth(boolean up, Map<String, Object> details) {

    /** Keeps the details in the order they were found, unmodifiable. */
    public DistlockHealth {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }
}
