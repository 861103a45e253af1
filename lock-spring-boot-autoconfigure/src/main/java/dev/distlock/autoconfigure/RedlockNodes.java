package dev.distlock.autoconfigure;

import io.lettuce.core.RedisURI;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Lettuce connection factories of the Redlock servers, one per URI of {@code distlock.redlock.nodes}.
 * They are not beans of their own (the application's {@code RedisConnectionFactory} stays the only one);
 * destroyed after the registry, which depends on them.
 */
final class RedlockNodes implements DisposableBean {

    private static final String PROPERTY = DistlockProperties.PREFIX + ".redlock.nodes";

    private final Map<String, LettuceConnectionFactory> byServer;

    private RedlockNodes(Map<String, LettuceConnectionFactory> byServer) {
        this.byServer = Collections.unmodifiableMap(byServer);
    }

    /** Checks every URI, then connects to each server (a command times out after twice the node timeout). */
    static RedlockNodes connect(DistlockProperties.Redlock redlock) {
        List<RedisStandaloneConfiguration> servers = new ArrayList<>();
        List<Boolean> ssl = new ArrayList<>();
        List<String> names = new ArrayList<>();
        List<String> nodes = redlock.getNodes();
        for (int i = 0; i < nodes.size(); i++) {
            RedisURI uri = parse(i, nodes.get(i));
            String name = uri.getHost() + ":" + uri.getPort();
            if (names.contains(name)) {
                throw invalid(i, nodes.get(i), "names " + uri.getHost() + ":" + uri.getPort() + " a second time: "
                        + "Redlock needs independent servers");
            }
            servers.add((RedisStandaloneConfiguration) LettuceConnectionFactory.createRedisConfiguration(uri));
            ssl.add(uri.isSsl());
            names.add(name);
        }
        Duration commandTimeout = redlock.getNodeTimeout().multipliedBy(2);
        Map<String, LettuceConnectionFactory> factories = new LinkedHashMap<>();
        for (int i = 0; i < servers.size(); i++) {
            LettuceClientConfiguration.LettuceClientConfigurationBuilder client = LettuceClientConfiguration.builder()
                    .commandTimeout(commandTimeout);
            if (ssl.get(i)) {
                client.useSsl();
            }
            LettuceConnectionFactory factory = new LettuceConnectionFactory(servers.get(i), client.build());
            factory.afterPropertiesSet();
            factory.start();
            factories.put(names.get(i), factory);
        }
        return new RedlockNodes(factories);
    }

    private static RedisURI parse(int index, String text) {
        if (text == null || !(text.startsWith("redis://") || text.startsWith("rediss://"))) {
            throw invalid(index, text, "must be a redis:// or rediss:// URI of one server (not Sentinel, a "
                    + "socket or a cluster)");
        }
        try {
            if (new URI(text).getHost() == null) { // Lettuce would take "host:junk" for a host name
                throw new IllegalArgumentException("no host, or a port that is not a number");
            }
            return RedisURI.create(text);
        } catch (URISyntaxException | RuntimeException malformed) {
            throw invalid(index, text, "is not a valid Redis URI: " + malformed.getMessage());
        }
    }

    /** An error naming the entry; a password in the URI is not repeated. */
    private static InvalidConfigurationPropertyValueException invalid(int index, String text, String reason) {
        String shown = text == null ? null : text.replaceFirst("//[^@/]*@", "//****@");
        return new InvalidConfigurationPropertyValueException(PROPERTY + "[" + index + "]", shown, reason);
    }

    /** The factories, in the order of the property. */
    List<LettuceConnectionFactory> factories() {
        return List.copyOf(byServer.values());
    }

    /** Each server's {@code host:port} (no password) and its factory, in the order of the property. */
    Map<String, LettuceConnectionFactory> byServer() {
        return byServer;
    }

    @Override
    public void destroy() {
        byServer.values().forEach(LettuceConnectionFactory::destroy);
    }
}
