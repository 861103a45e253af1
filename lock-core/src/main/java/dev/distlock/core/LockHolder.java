package dev.distlock.core;

import java.time.Instant;

/**
 * A registry that holds locks, as it announced itself in the backend: which application, host and process.
 * A registry announces itself when it first holds a lock, and keeps the announcement alive while it is open
 * (it expires about a minute after the process is gone).
 *
 * @param instance the registry's random id, which starts every owner token it issues
 * @param application the application name it was given ({@code spring.application.name} with Spring Boot),
 *        or {@code null}
 * @param host the host it runs on
 * @param pid the operating system's process id
 * @param startedAt when the registry was created
 */
public record LockHolder(String instance, String application, String host, long pid, Instant startedAt) {
}
