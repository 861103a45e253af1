package dev.distlock.test;

import static dev.distlock.test.RedisServer.BINARY_ENV;
import static dev.distlock.test.RedisServer.BINARY_PROPERTY;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds the {@code redis-server} binary: system property, environment variable, {@code PATH}, fallback dirs. */
final class RedisBinary {

    private static final List<Path> FALLBACK_DIRS =
            List.of(Path.of("/usr/bin"), Path.of("/usr/local/bin"), Path.of("/opt/homebrew/bin"));

    private RedisBinary() {
    }

    /** Finds the binary from the real system property, environment and {@code PATH}. */
    static Path find() {
        return find(System.getProperty(BINARY_PROPERTY), System.getenv(BINARY_ENV), System.getenv("PATH"),
                FALLBACK_DIRS);
    }

    /**
     * Finds the binary from the given values, so that discovery is testable without global state. An explicitly
     * configured property or environment variable must name an executable file: a wrong one fails instead of silently
     * falling back to another binary.
     */
    static Path find(String property, String env, String path, List<Path> fallbackDirs) {
        if (property != null && !property.isBlank()) {
            return explicit(property.trim(), "-D" + BINARY_PROPERTY + "=");
        }
        if (env != null && !env.isBlank()) {
            return explicit(env.trim(), BINARY_ENV + "=");
        }
        List<Path> dirs = new ArrayList<>();
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    dirs.add(Path.of(entry));
                }
            }
        }
        dirs.addAll(fallbackDirs);
        for (Path dir : dirs) {
            Path candidate = dir.resolve("redis-server");
            if (isExecutableFile(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException(
                "No redis-server binary found on PATH nor in " + fallbackDirs + ".\n" + installInstructions());
    }

    /** How to install {@code redis-server} or point the tests at one; part of every "not found" message. */
    static String installInstructions() {
        return "The distlock Redis tests need a real redis-server binary (Redis 7.x); they never skip when it is "
                + "missing, they fail. Install one:\n"
                + "  Debian/Ubuntu: sudo apt-get install redis-server\n"
                + "  macOS:         brew install redis\n"
                + "or point -D" + BINARY_PROPERTY + "=/path/to/redis-server or the environment variable " + BINARY_ENV
                + " at one.";
    }

    private static Path explicit(String value, String setting) {
        Path candidate = Path.of(value);
        if (isExecutableFile(candidate)) {
            return candidate;
        }
        throw new IllegalStateException(
                setting + value + " does not name an executable redis-server.\n" + installInstructions());
    }

    private static boolean isExecutableFile(Path candidate) {
        return Files.isRegularFile(candidate) && Files.isExecutable(candidate);
    }
}
