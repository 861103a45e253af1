package dev.distlock.aop;

import dev.distlock.redis.RedisLockRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * One "process" on real Redis for the annotation's tests: a Lettuce connection factory (sharing its connection, as
 * Spring Boot's does) to the {@link RedisStandaloneConfiguration} the context is given, a Redis registry on it, and
 * the advisor. A test's configuration imports it and adds the beans it calls.
 */
@Configuration(proxyBeanMethods = false)
@Import(LockTestConfiguration.Advice.class)
class RedisLockProcess {

    @Bean(destroyMethod = "destroy")
    LettuceConnectionFactory redisConnectionFactory(RedisStandaloneConfiguration address) {
        LettuceConnectionFactory factory = new LettuceConnectionFactory(address);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    @Bean(destroyMethod = "close")
    RedisLockRegistry lockRegistry(LettuceConnectionFactory redisConnectionFactory) {
        return RedisLockRegistry.builder(redisConnectionFactory).build();
    }
}
