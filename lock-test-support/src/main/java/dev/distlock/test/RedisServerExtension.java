package dev.distlock.test;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * JUnit 5 extension providing real {@code redis-server} processes ({@link RedisServer}) to a test class. Register it
 * in a static field:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis = new RedisServerExtension();   // or servers(3)
 *
 * @Test
 * void works() {
 *     RedisClient client = RedisClient.create(redis.server().uri());
 *     ...
 * }
 * }</pre>
 *
 * <p>Several servers start in parallel. To run them on another server version, e.g. for Redlock tests on Valkey:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final RedisServerExtension redis =
 *         RedisServerExtension.servers(5).using(RedisBinary.named(RedisBinary.VALKEY_8_0));
 * }</pre>
 *
 * <p>The servers start once before all tests of the class and are stopped and deleted after them. Before each test
 * every server is brought back to a clean state: a suspended one is resumed, a stopped or client-paused one is
 * restarted (or unpaused), and all data and cached Lua scripts are flushed ({@code FLUSHALL}, {@code SCRIPT FLUSH}).
 * Tests may therefore stop, kill, restart, suspend or pause servers freely.
 *
 * <p>If the field is not static (and the class uses the default per-method lifecycle), the servers are started before
 * each test and stopped after it, which works but is slower (see {@link RedisExtensionSupport}). If
 * {@code redis-server} is missing, the tests fail with installation instructions; they never skip.
 */
public final class RedisServerExtension extends RedisExtensionSupport<RedisServerGroup> {

    private static final Duration RESET_TIMEOUT = Duration.ofSeconds(5);

    private final int count;

    /** An extension with one server. */
    public RedisServerExtension() {
        this(1, null);
    }

    private RedisServerExtension(int count, RedisBinary binary) {
        super(() -> startAll(count, binary), RedisServerExtension::reset);
        if (count < 1) {
            throw new IllegalArgumentException("at least one server is needed, got " + count);
        }
        this.count = count;
    }

    /**
     * An extension with several independent servers, e.g. for Redlock-style tests.
     *
     * @param count number of servers, at least 1
     * @return the extension, to be stored in a static {@code @RegisterExtension} field
     */
    public static RedisServerExtension servers(int count) {
        return new RedisServerExtension(count, null);
    }

    /**
     * The same extension running another binary (default: {@link RedisBinary#installed()}); a missing binary fails
     * the test class with instructions to fetch it.
     *
     * @param binary e.g. {@code RedisBinary.named(RedisBinary.REDIS_6_0)}
     * @return a new extension, to be stored in a static {@code @RegisterExtension} field
     */
    public RedisServerExtension using(RedisBinary binary) {
        return new RedisServerExtension(count, Objects.requireNonNull(binary, "binary"));
    }

    /**
     * The first (or only) server.
     *
     * @return the server
     * @throws IllegalStateException outside the lifecycle of the test class
     */
    public RedisServer server() {
        return servers().get(0);
    }

    /**
     * All servers, in a fixed order.
     *
     * @return an unmodifiable list of {@code servers(n)} servers
     * @throws IllegalStateException outside the lifecycle of the test class
     */
    public List<RedisServer> servers() {
        return running().servers();
    }

    /** Starts the servers in parallel. */
    private static RedisServerGroup startAll(int count, RedisBinary binary) {
        RedisServerBuilder builder = RedisServer.builder();
        if (binary != null) {
            builder.binary(binary);
        }
        return new RedisServerGroup(builder.start(count));
    }

    /** Resumes, restarts or unpauses every server as needed and flushes its data and scripts. */
    private static void reset(RedisServerGroup group) {
        for (RedisServer server : group.servers()) {
            resetServer(server);
        }
    }

    private static void resetServer(RedisServer server) {
        server.resume();
        if (!server.isRunning() || server.mayBePaused()) {
            server.restart();
            return;
        }
        try (RespClient client = server.client(RESET_TIMEOUT)) {
            if (server.binary().isAtLeastRedis(6, 2)) {
                client.command("CLIENT", "UNPAUSE"); // ends a CLIENT PAUSE ... WRITE issued by the test
            }
            client.command("FLUSHALL");
            client.command("SCRIPT", "FLUSH");
        } catch (RuntimeException e) {
            // e.g. a CLIENT PAUSE ... ALL issued directly by the test: a restart also yields a clean server
            server.restart();
        }
    }
}
