package dev.distlock.redlock;

import dev.distlock.test.RedisServer;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Started Lettuce connection factories, one per server, for a Redlock registry. */
final class RedlockConnections {

    private RedlockConnections() {
    }

    /** A builder over fresh factories on {@code servers}; each factory is handed to {@code closeLater}. */
    static RedlockLockRegistry.Builder registry(List<RedisServer> servers, Consumer<AutoCloseable> closeLater) {
        List<LettuceConnectionFactory> factories = servers.stream().map(RedlockConnections::lettuce).toList();
        factories.forEach(factory -> closeLater.accept(factory::destroy));
        return RedlockLockRegistry.builder(factories);
    }

    static LettuceConnectionFactory lettuce(RedisServer server) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(server.host(), server.port()),
                LettuceClientConfiguration.builder().commandTimeout(Duration.ofSeconds(2)).build());
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
