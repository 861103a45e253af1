package dev.distlock.samples.inventory.demo;

import io.lettuce.core.KeyScanCursor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScanArgs;
import io.lettuce.core.ScanCursor;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import java.time.Duration;

/** The launcher's own connection to the Redis the instances use: to check it answers and to tidy up. */
final class DemoRedis implements AutoCloseable {

    /** Where the demo looks for Redis when nothing names one, as Spring Boot does. */
    static final int DEFAULT_PORT = 6379;

    private static final Duration TIMEOUT = Duration.ofSeconds(3);

    private final String address;
    private final RedisClient client;
    private final StatefulRedisConnection<String, String> connection;

    private DemoRedis(String address, RedisClient client, StatefulRedisConnection<String, String> connection) {
        this.address = address;
        this.client = client;
        this.connection = connection;
    }

    /**
     * Connects as the instances will, with the same {@code spring.data.redis} url, host, port, username,
     * password and database, and checks that Redis answers a PING.
     *
     * @throws RedisUnavailableException if it does not
     */
    static DemoRedis connect(DemoSettings settings) {
        return connect(settings, DEFAULT_PORT);
    }

    /** {@link #connect(DemoSettings)}, on {@code defaultPort} of localhost when the settings name no Redis. */
    static DemoRedis connect(DemoSettings settings, int defaultPort) {
        RedisURI uri = uriOf(settings, defaultPort);
        String address = uri.getHost() + ":" + uri.getPort();
        RedisClient client = RedisClient.create(uri);
        try {
            StatefulRedisConnection<String, String> connection = client.connect();
            connection.sync().ping();
            return new DemoRedis(address, client, connection);
        } catch (RuntimeException ex) {
            client.shutdown(Duration.ZERO, TIMEOUT);
            throw new RedisUnavailableException(address, ex);
        }
    }

    private static RedisURI uriOf(DemoSettings settings, int defaultPort) {
        String url = settings.redis("url", null);
        RedisURI uri = url != null ? RedisURI.create(url) : RedisURI.create(settings.redis("host", "localhost"),
                Integer.parseInt(settings.redis("port", Integer.toString(defaultPort))));
        String password = settings.redis("password", null);
        if (password != null) {
            uri.setAuthentication(settings.redis("username", null), password);
        }
        uri.setDatabase(Integer.parseInt(settings.redis("database", Integer.toString(uri.getDatabase()))));
        uri.setTimeout(TIMEOUT);
        return uri;
    }

    /** Where Redis is, as {@code host:port}. */
    String address() {
        return address;
    }

    /** Deletes every key that starts with {@code prefix}, and only those; returns how many it deleted. */
    long deleteKeys(String prefix) {
        RedisCommands<String, String> redis = connection.sync();
        ScanArgs matching = ScanArgs.Builder.matches(escapeGlob(prefix) + "*").limit(500);
        long deleted = 0;
        KeyScanCursor<String> cursor = redis.scan(matching);
        while (true) {
            if (!cursor.getKeys().isEmpty()) {
                deleted += redis.del(cursor.getKeys().toArray(String[]::new));
            }
            if (cursor.isFinished()) {
                return deleted;
            }
            cursor = redis.scan(ScanCursor.of(cursor.getCursor()), matching);
        }
    }

    private static String escapeGlob(String text) {
        return text.replaceAll("([*?\\[\\]\\\\])", "\\\\$1");
    }

    @Override
    public void close() {
        connection.close();
        client.shutdown(Duration.ZERO, TIMEOUT);
    }

    /** No Redis answered where the settings point. */
    static final class RedisUnavailableException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        RedisUnavailableException(String address, Throwable cause) {
            super("no Redis answers at " + address + ": " + cause.getMessage(), cause);
        }
    }
}
