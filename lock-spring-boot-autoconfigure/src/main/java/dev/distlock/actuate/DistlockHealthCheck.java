package dev.distlock.actuate;

import dev.distlock.redis.RedisLockRegistry;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Checks that locking can work on the Redis behind a connection factory, free of Spring Boot's health types:
 * <ul>
 *   <li>DOWN when the server is older than {@link RedisLockRegistry#MINIMUM_SERVER_VERSION};</li>
 *   <li>DOWN when scripting is refused or fails ({@code EVALSHA}, {@code EVAL} after {@code NOSCRIPT}, as the
 *   lock operations run): every lock operation is a Lua script;</li>
 *   <li>DOWN when the user may not publish on the registry's hand-off channels (see
 *   {@link HandOffChannelCheck}): every contended release would fail;</li>
 *   <li>UP otherwise, with the server version and role, and a warning when {@code maxmemory-policy} can
 *   evict lock keys (see {@link MaxmemoryPolicy}).</li>
 * </ul>
 * It writes no key; the only message it may publish goes to a channel nobody listens on. For the servers of
 * Redlock, which publish nothing, {@link #withoutHandOffs} leaves the channel check out.
 *
 * @since 0.1.0
 */
public final class DistlockHealthCheck implements HealthCheck {

    /** Calls a command from Lua, as the lock scripts do, and answers 1. */
    private static final String PROBE = "redis.call('PING') return 1";
    private static final String PROBE_SHA = RedisScript.of(PROBE).getSha1();

    private final RedisConnectionFactory connectionFactory;
    private final String minimumVersion;
    private final HandOffChannelCheck channels;

    /**
     * Checks the Redis behind {@code connectionFactory} for a registry whose hand-off channels start with
     * {@code channelPrefix}.
     *
     * @param channelPrefix e.g. {@code distlock:granted:} (see {@link #channelPrefixOf})
     */
    public DistlockHealthCheck(RedisConnectionFactory connectionFactory, String channelPrefix) {
        this(connectionFactory, channelPrefix, RedisLockRegistry.MINIMUM_SERVER_VERSION);
    }

    DistlockHealthCheck(RedisConnectionFactory connectionFactory, String channelPrefix, String minimumVersion) {
        this.connectionFactory = Objects.requireNonNull(connectionFactory, "connectionFactory");
        this.minimumVersion = minimumVersion;
        this.channels = channelPrefix == null ? null : new HandOffChannelCheck(channelPrefix + "health-check");
    }

    /**
     * The check of one server of a registry that publishes no hand-off notices (Redlock's): version and
     * scripting only.
     */
    public static DistlockHealthCheck withoutHandOffs(RedisConnectionFactory connectionFactory) {
        return new DistlockHealthCheck(connectionFactory, null, RedisLockRegistry.MINIMUM_SERVER_VERSION);
    }

    /**
     * The check for an application's registry: its hand-off channels are those of {@code registry} when it
     * is a {@link RedisLockRegistry}, otherwise those of registries with {@code keyPrefix}.
     */
    public static DistlockHealthCheck of(RedisConnectionFactory connectionFactory, RedisLockRegistry registry,
            String keyPrefix) {
        return new DistlockHealthCheck(connectionFactory,
                registry != null ? channelPrefixOf(registry) : channelPrefixOf(keyPrefix));
    }

    /** The prefix of the hand-off channels of {@code registry}: its key prefix, a colon, {@code granted:}. */
    public static String channelPrefixOf(RedisLockRegistry registry) {
        String pattern = registry.handOffChannelPattern();
        return pattern.substring(0, pattern.length() - 1);
    }

    /** The prefix of the hand-off channels of registries with the key prefix {@code keyPrefix}. */
    public static String channelPrefixOf(String keyPrefix) {
        return keyPrefix.isEmpty() ? "granted:" : keyPrefix + ":granted:";
    }

    @Override
    public DistlockHealth check() {
        Map<String, Object> details = new LinkedHashMap<>();
        try (RedisConnection connection = connectionFactory.getConnection()) {
            ServerInfo server = ServerInfo.read(connection.serverCommands());
            details.put("version", server.version());
            details.put("role", server.role());
            if (server.unreadableBecause() != null) {
                details.put("versionError", server.unreadableBecause());
            }
            if (server.isOlderThan(minimumVersion)) {
                return down(details, "Redis " + server.version() + " is older than " + minimumVersion
                        + ", the oldest version distlock's lock scripts run on");
            }
            String scripting = refusedScripting(connection);
            if (scripting != null) {
                return down(details, scripting);
            }
            if (channels != null) {
                HandOffChannelCheck.Result publishing = channels.run(connection);
                details.put("handOffChannelCheck", publishing.method());
                if (publishing.refusedBecause() != null) {
                    return down(details, "This Redis user may not publish on the hand-off channels "
                            + channels.channel().replace("health-check", "*") + " (" + publishing.refusedBecause()
                            + "): releases that hand a lock to a waiting process would fail");
                }
            }
            MaxmemoryPolicy.read(connection.serverCommands()).describe(details);
            return new DistlockHealth(true, details);
        } catch (RuntimeException ex) {
            return down(details, "Redis could not be checked: " + HealthFailures.rootCause(ex));
        }
    }

    /** Why scripts cannot run, or {@code null} when they can. */
    private static String refusedScripting(RedisConnection connection) {
        Long answer;
        try {
            try {
                answer = connection.scriptingCommands().evalSha(PROBE_SHA, ReturnType.INTEGER, 0);
            } catch (RuntimeException ex) {
                if (!HealthFailures.isNoScript(ex)) {
                    throw ex;
                }
                answer = connection.scriptingCommands().eval(PROBE.getBytes(StandardCharsets.UTF_8),
                        ReturnType.INTEGER, 0);
            }
        } catch (RuntimeException ex) {
            return HealthFailures.isNoPermission(ex)
                    ? "This Redis user may not run Lua scripts (EVALSHA and EVAL run every lock operation): "
                            + HealthFailures.rootCause(ex)
                    // Spring's translated exceptions often say only "Error in execution": the root cause says why
                    : "Redis did not run the Lua probe: " + HealthFailures.rootCause(ex);
        }
        return answer != null && answer == 1L ? null : "The Lua probe answered " + answer + " instead of 1";
    }

    private static DistlockHealth down(Map<String, Object> details, String reason) {
        details.put("error", reason);
        return new DistlockHealth(false, details);
    }
}
