package dev.distlock.core.spi;

import java.util.Objects;

/**
 * One hold's renewal in a batch ({@link BatchRenewal#renewAll}): make the remaining lease of {@code name}, held under
 * {@code token}, at least {@code leaseMillis}.
 *
 * @param name the lock's name
 * @param token the hold's owner token
 * @param leaseMillis the lease it keeps, in milliseconds
 * @since 0.1.0
 */
public record Renewal(String name, String token, long leaseMillis) {

    public Renewal {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(token, "token");
    }
}
