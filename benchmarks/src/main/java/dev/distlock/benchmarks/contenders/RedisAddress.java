package dev.distlock.benchmarks.contenders;

import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * Where the benchmark's redis-server listens.
 *
 * @param host the loopback address
 * @param port the port the run picked
 */
public record RedisAddress(String host, int port) {

    /** {@code redis://host:port}. */
    public String uri() {
        return "redis://" + host + ":" + port;
    }

    /** A started Spring Data connection factory with default settings, as an application would have. */
    public LettuceConnectionFactory newConnectionFactory() {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(new RedisStandaloneConfiguration(host, port));
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
