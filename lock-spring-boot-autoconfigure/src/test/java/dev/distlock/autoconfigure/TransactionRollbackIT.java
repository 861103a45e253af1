package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockLostBeforeCommitException;
import dev.distlock.core.LockLostException;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.annotation.Transactional;

/**
 * A Spring Boot application on a real redis-server and an H2 database: a transaction begun inside a
 * {@code @DistributedLock} method whose key is deleted in Redis meanwhile (another process, an operator, a failover
 * that lost it) rolls back; with {@code distlock.transaction.rollback-on-loss=false} it commits as before.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TransactionRollbackIT {

    @RegisterExtension
    static final RedisServerExtension redis = new RedisServerExtension();

    private ConfigurableApplicationContext context;

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void aLockDeletedInRedisDuringTheTransactionRollsItBack() {
        Orders orders = start();

        assertThatThrownBy(() -> orders.place("o-1", true)).isInstanceOf(LockLostBeforeCommitException.class)
                .hasMessageContaining("'order:o-1'").hasMessageContaining("rolled back");

        assertThat(rows("o-1")).isZero();
        orders.place("o-2", false);
        assertThat(rows("o-2")).isOne();
    }

    @Test
    void turnedOffTheTransactionCommitsAndTheReleaseReportsTheLoss() {
        Orders orders = start("distlock.transaction.rollback-on-loss=false");

        assertThatThrownBy(() -> orders.place("o-3", true)).isInstanceOf(LockLostException.class)
                .isNotInstanceOf(LockLostBeforeCommitException.class);

        assertThat(rows("o-3")).isOne();
    }

    private Orders start(String... properties) {
        context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off",
                        "spring.datasource.url=jdbc:h2:mem:orders-" + UUID.randomUUID())
                .properties(properties)
                .run();
        context.getBean(JdbcTemplate.class).execute("create table orders (id varchar(20) primary key)");
        return context.getBean(Orders.class);
    }

    private int rows(String id) {
        return context.getBean(JdbcTemplate.class).queryForObject("select count(*) from orders where id = ?",
                Integer.class, id);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Orders orders(JdbcTemplate jdbc, StringRedisTemplate redis, RedisLockRegistry registry) {
            return new Orders(jdbc, redis, registry);
        }
    }

    static class Orders {

        private final JdbcTemplate jdbc;
        private final StringRedisTemplate redis;
        private final RedisLockRegistry registry;

        Orders(JdbcTemplate jdbc, StringRedisTemplate redis, RedisLockRegistry registry) {
            this.jdbc = jdbc;
            this.redis = redis;
            this.registry = registry;
        }

        /** Writes the order; with {@code loseTheLock}, its key is deleted in Redis before the commit. */
        @DistributedLock(name = "'order:' + #id")
        @Transactional
        public void place(String id, boolean loseTheLock) {
            jdbc.update("insert into orders(id) values (?)", id);
            if (loseTheLock) {
                assertThat(redis.delete(registry.keyOf("order:" + id))).isTrue();
            }
        }
    }
}
