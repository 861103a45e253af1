package dev.distlock.test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A {@code redis-server} (or {@code valkey-server}) executable to run tests on.
 *
 * <ul>
 *   <li>{@link #installed()}: the machine's own server, found through the system property
 *       {@value RedisServer#BINARY_PROPERTY}, the environment variable {@value RedisServer#BINARY_ENV}, {@code PATH},
 *       then {@code /usr/bin}, {@code /usr/local/bin} and {@code /opt/homebrew/bin}.
 *   <li>{@link #named(String)}: another server version by name, e.g. {@value #REDIS_6_0} or {@value #VALKEY_8_0},
 *       found through the system property {@code distlock.redis-server.<name>}, the environment variable
 *       {@code REDIS_SERVER_BIN_<NAME>} (upper case, other characters as {@code _}, e.g.
 *       {@code REDIS_SERVER_BIN_REDIS_6_0}), then the executable {@code <servers dir>/<name>/server} that the script
 *       {@value #FETCH_SCRIPT} puts there. The servers dir is the system property {@value #SERVERS_DIR_PROPERTY},
 *       else the environment variable {@value #SERVERS_DIR_ENV}, else {@code $XDG_CACHE_HOME/distlock/servers},
 *       else {@code ~/.cache/distlock/servers}.
 *   <li>{@link #of(Path)}: an explicit executable.
 * </ul>
 *
 * <p>A binary that cannot be found fails with a message saying how to get it: tests on Redis fail, they never skip.
 * Start a server on one with {@link RedisServer#start(RedisBinary)} or {@link RedisServerExtension#using(RedisBinary)}.
 */
public final class RedisBinary {

    /** Name of redis-server 6.0 (Debian bullseye's 6.0.16), fetched by {@value #FETCH_SCRIPT}. */
    public static final String REDIS_6_0 = "redis-6.0";

    /** Name of valkey-server 8.0 (Debian bookworm-backports' 8.0.1), fetched by {@value #FETCH_SCRIPT}. */
    public static final String VALKEY_8_0 = "valkey-8.0";

    /** System property naming the folder of the fetched servers. */
    public static final String SERVERS_DIR_PROPERTY = "distlock.servers-dir";

    /** Environment variable naming the folder of the fetched servers. */
    public static final String SERVERS_DIR_ENV = "DISTLOCK_SERVERS_DIR";

    /** The script, relative to the repository root, that fetches the named servers. */
    public static final String FETCH_SCRIPT = ".ci/fetch-redis-servers";

    private static final Pattern VERSION = Pattern.compile("^(\\S+) server v=(\\d+)\\.(\\d+)\\.(\\d+)");
    private static final long VERSION_TIMEOUT_SECONDS = 10;
    private static final Map<Path, RedisBinary> BY_EXECUTABLE = new ConcurrentHashMap<>();

    private final String name;
    private final Path executable;
    private volatile Version version;

    private RedisBinary(String name, Path executable) {
        this.name = name;
        this.executable = executable;
    }

    /**
     * The machine's own server, as {@link RedisServer#start()} uses it.
     *
     * @return the binary
     * @throws IllegalStateException with installation instructions if there is none
     */
    public static RedisBinary installed() {
        return cached("installed", RedisBinaryLocator.find());
    }

    /**
     * A server fetched by {@value #FETCH_SCRIPT} (or configured by property or environment), e.g.
     * {@code RedisBinary.named(RedisBinary.REDIS_6_0)}.
     *
     * @param name the server's name, e.g. {@value #REDIS_6_0} or {@value #VALKEY_8_0}
     * @return the binary
     * @throws IllegalStateException naming the fetch script if it cannot be found
     */
    public static RedisBinary named(String name) {
        Objects.requireNonNull(name, "name");
        return cached(name, RedisBinaryLocator.findNamed(name));
    }

    /**
     * An explicit executable.
     *
     * @param executable path of a {@code redis-server} or {@code valkey-server}
     * @return the binary
     * @throws IllegalStateException if it is not an executable file
     */
    public static RedisBinary of(Path executable) {
        return cached(executable.toString(), RedisBinaryLocator.explicit(executable.toString(), "RedisBinary.of("));
    }

    /** The name this binary was asked for: {@code installed}, a name given to {@link #named}, or a path. */
    public String name() {
        return name;
    }

    /** The executable (for a fetched server, its wrapper script, which execs the real binary with the same pid). */
    public Path executable() {
        return executable;
    }

    /**
     * The version the server reports with {@code --version}, e.g. {@code 6.0.16}; runs it once (at most 10 s).
     *
     * @return major.minor.patch
     */
    public String version() {
        return parsedVersion().text();
    }

    /** The product the server reports with {@code --version}: {@code Redis} or {@code Valkey}. */
    public String product() {
        return parsedVersion().product();
    }

    /**
     * Whether the server speaks at least Redis {@code major.minor}'s commands and options (Valkey counts as 7.2, the
     * Redis version it forked from).
     *
     * @param major Redis major version
     * @param minor Redis minor version
     * @return true if the server is that version or later
     */
    public boolean isAtLeastRedis(int major, int minor) {
        Version v = parsedVersion();
        if ("valkey".equalsIgnoreCase(v.product())) {
            return 7 > major || (7 == major && 2 >= minor);
        }
        return v.major() > major || (v.major() == major && v.minor() >= minor);
    }

    @Override
    public String toString() {
        return name.equals(executable.toString()) ? name : name + " (" + executable + ")";
    }

    private Version parsedVersion() {
        Version v = version;
        if (v == null) {
            v = readVersion(executable);
            version = v;
        }
        return v;
    }

    private static RedisBinary cached(String name, Path executable) {
        RedisBinary binary = BY_EXECUTABLE.computeIfAbsent(executable, e -> new RedisBinary(name, e));
        return binary.name.equals(name) ? binary : new RedisBinary(name, executable);
    }

    private static Version readVersion(Path executable) {
        String output;
        try {
            Process process = new ProcessBuilder(executable.toString(), "--version").redirectErrorStream(true).start();
            process.getOutputStream().close();
            if (!process.waitFor(VERSION_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new IllegalStateException(executable + " --version did not answer in " + VERSION_TIMEOUT_SECONDS
                        + " s");
            }
            output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + executable + " --version: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + executable + " --version", e);
        }
        Matcher m = VERSION.matcher(output);
        if (!m.find()) {
            throw new IllegalStateException(executable + " --version printed no server version: " + output);
        }
        return new Version(m.group(1), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3)),
                m.group(2) + "." + m.group(3) + "." + m.group(4));
    }

    private record Version(String product, int major, int minor, String text) {
    }
}
