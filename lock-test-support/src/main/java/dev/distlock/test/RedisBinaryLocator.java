package dev.distlock.test;

import static dev.distlock.test.RedisBinary.FETCH_SCRIPT;
import static dev.distlock.test.RedisBinary.SERVERS_DIR_ENV;
import static dev.distlock.test.RedisBinary.SERVERS_DIR_PROPERTY;
import static dev.distlock.test.RedisServer.BINARY_ENV;
import static dev.distlock.test.RedisServer.BINARY_PROPERTY;

import java.io.File;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where the executables of {@link RedisBinary} and {@link RedisCli} are: system properties, environment variables,
 * {@code PATH}, the usual directories and the folder of fetched servers. Every lookup takes its inputs as arguments
 * too, so that it is testable without global state; a failed one says how to install or fetch what is missing.
 */
final class RedisBinaryLocator {

    static final List<Path> FALLBACK_DIRS =
            List.of(Path.of("/usr/bin"), Path.of("/usr/local/bin"), Path.of("/opt/homebrew/bin"));

    private RedisBinaryLocator() {
    }

    /** Finds a named binary from the real system properties, environment and home directory. */
    static Path findNamed(String name) {
        return findNamed(name, System.getProperty(BINARY_PROPERTY + "." + name), System.getenv(envName(name)),
                serversDir(System.getProperty(SERVERS_DIR_PROPERTY), System.getenv(SERVERS_DIR_ENV),
                        System.getenv("XDG_CACHE_HOME"), System.getProperty("user.home")));
    }

    /** Finds the installed binary from the real system property, environment and {@code PATH}. */
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
        return onPath("redis-server", path, fallbackDirs).orElseThrow(() -> new IllegalStateException(
                "No redis-server binary found on PATH nor in " + fallbackDirs + ".\n" + installInstructions()));
    }

    /** The first executable file {@code name} in the directories of {@code path}, then in {@code fallbackDirs}. */
    static Optional<Path> onPath(String name, String path, List<Path> fallbackDirs) {
        List<Path> dirs = new ArrayList<>();
        if (path != null) {
            for (String entry : path.split(File.pathSeparator)) {
                if (!entry.isBlank()) {
                    dirs.add(Path.of(entry));
                }
            }
        }
        dirs.addAll(fallbackDirs);
        return dirs.stream().map(dir -> dir.resolve(name)).filter(RedisBinaryLocator::isExecutableFile).findFirst();
    }

    /** Finds a named binary from the given values (property, environment variable, servers dir), like {@link #find}. */
    static Path findNamed(String name, String property, String env, Path serversDir) {
        if (property != null && !property.isBlank()) {
            return explicitNamed(name, property.trim(), "-D" + BINARY_PROPERTY + "." + name + "=");
        }
        if (env != null && !env.isBlank()) {
            return explicitNamed(name, env.trim(), envName(name) + "=");
        }
        Path candidate = serversDir.resolve(name).resolve("server");
        if (isExecutableFile(candidate)) {
            return candidate;
        }
        throw new IllegalStateException("No server named " + name + ": " + candidate + " does not exist.\n"
                + fetchInstructions(name));
    }

    /** The folder of fetched servers, from the given property, environment variables and home directory. */
    static Path serversDir(String property, String env, String xdgCacheHome, String userHome) {
        if (property != null && !property.isBlank()) {
            return Path.of(property.trim());
        }
        if (env != null && !env.isBlank()) {
            return Path.of(env.trim());
        }
        Path cache = xdgCacheHome != null && !xdgCacheHome.isBlank()
                ? Path.of(xdgCacheHome.trim())
                : Path.of(userHome, ".cache");
        return cache.resolve("distlock").resolve("servers");
    }

    /** The environment variable naming the binary of a named server, e.g. {@code REDIS_SERVER_BIN_REDIS_6_0}. */
    static String envName(String name) {
        return BINARY_ENV + "_" + name.toUpperCase(Locale.ROOT).replaceAll("[^A-Z0-9]", "_");
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

    /** How to get a named server; part of every "not found" message of {@link #named}. */
    static String fetchInstructions(String name) {
        return "The distlock tests on other server versions need it; they never skip when it is missing, they fail. "
                + "Fetch it (Debian/Ubuntu, nothing is installed) from the repository root with:\n"
                + "  " + FETCH_SCRIPT + " " + name + "\n"
                + "or point -D" + BINARY_PROPERTY + "." + name + "=/path/to/server or the environment variable "
                + envName(name) + " at one.";
    }

    static Path explicit(String value, String setting) {
        Path candidate = Path.of(value);
        if (isExecutableFile(candidate)) {
            return candidate;
        }
        throw new IllegalStateException(
                setting + value + " does not name an executable redis-server.\n" + installInstructions());
    }

    private static Path explicitNamed(String name, String value, String setting) {
        Path candidate = Path.of(value);
        if (isExecutableFile(candidate)) {
            return candidate;
        }
        throw new IllegalStateException(setting + value + " does not name an executable server.\n"
                + fetchInstructions(name));
    }

    static boolean isExecutableFile(Path candidate) {
        return Files.isRegularFile(candidate) && Files.isExecutable(candidate);
    }
}
