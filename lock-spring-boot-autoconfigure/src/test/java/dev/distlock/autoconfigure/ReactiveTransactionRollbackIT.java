package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.LockLostBeforeCommitException;
import dev.distlock.aop.LockedTransactionalOperator;
import dev.distlock.core.LockLostException;
import dev.distlock.redis.RedisLockRegistry;
import dev.distlock.test.RedisServerExtension;
import io.r2dbc.h2.H2ConnectionFactory;
import io.r2dbc.spi.ConnectionFactory;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
import org.springframework.r2dbc.connection.R2dbcTransactionManager;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.reactive.TransactionalOperator;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * A Spring Boot application on a real redis-server and an H2 database reached through R2DBC: a reactive
 * transaction begun inside a {@code @DistributedLock} {@code Mono} method or suspend function whose key is deleted in
 * Redis meanwhile rolls back; with {@code distlock.transaction.rollback-on-loss=false} it commits as before.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReactiveTransactionRollbackIT {

    private static final Duration PATIENCE = Duration.ofSeconds(30);

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
    void aLockDeletedInRedisDuringAReactiveTransactionRollsItBack() {
        Orders orders = start().getBean(Orders.class);

        assertThatThrownBy(() -> orders.place("o-1", true).block(PATIENCE))
                .isInstanceOf(LockLostBeforeCommitException.class).hasMessageContaining("'order:o-1'")
                .hasMessageContaining("rolled back");

        assertThat(rows("o-1")).isZero();
        orders.place("o-2", false).block(PATIENCE);
        assertThat(rows("o-2")).isOne();
    }

    @Test
    void aSuspendFunctionsTransactionRollsBackToo() {
        SuspendOrders orders = start().getBean(SuspendOrders.class);

        assertThatThrownBy(() -> SuspendOrders.placing(orders, "s-1", true).block(PATIENCE))
                .isInstanceOf(LockLostBeforeCommitException.class).hasMessageContaining("'order:s-1'");

        assertThat(rows("s-1")).isZero();
        SuspendOrders.placing(orders, "s-2", false).block(PATIENCE);
        assertThat(rows("s-2")).isOne();
    }

    @Test
    void aTransactionalFluxCalledInsideTheLockedPipelineRollsBackToo() {
        Orders orders = start().getBean(Orders.class);

        assertThatThrownBy(() -> orders.placeThroughLedger("l-1", true).block(PATIENCE))
                .isInstanceOf(LockLostBeforeCommitException.class).hasMessageContaining("'order:l-1'");

        assertThat(rows("l-1")).isZero();
        orders.placeThroughLedger("l-2", false).block(PATIENCE);
        assertThat(rows("l-2")).isOne();
    }

    @Test
    void aTransactionalOperatorsTransactionRollsBackToo() {
        ConfigurableApplicationContext context = start();
        assertThat(context.getBean(TransactionalOperator.class)).isInstanceOf(LockedTransactionalOperator.class);
        Orders orders = context.getBean(Orders.class);

        assertThatThrownBy(() -> orders.placeWithOperator("t-1", true).block(PATIENCE))
                .isInstanceOf(LockLostBeforeCommitException.class).hasMessageContaining("'order:t-1'");

        assertThat(rows("t-1")).isZero();
        orders.placeWithOperator("t-2", false).block(PATIENCE);
        assertThat(rows("t-2")).isOne();
    }

    @Test
    void turnedOffTheTransactionCommitsAndTheReleaseReportsTheLoss() {
        Orders orders = start("distlock.transaction.rollback-on-loss=false").getBean(Orders.class);

        assertThatThrownBy(() -> orders.place("o-3", true).block(PATIENCE)).isInstanceOf(LockLostException.class)
                .isNotInstanceOf(LockLostBeforeCommitException.class);

        assertThat(rows("o-3")).isOne();
    }

    private ConfigurableApplicationContext start(String... properties) {
        context = new SpringApplicationBuilder(Application.class).web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + redis.server().port(), "spring.main.banner-mode=off")
                .properties(properties)
                .run();
        context.getBean(DatabaseClient.class).sql("create table orders (id varchar(20) primary key)").then()
                .block(PATIENCE);
        return context;
    }

    private long rows(String id) {
        return context.getBean(DatabaseClient.class).sql("select count(*) from orders where id = :id").bind("id", id)
                .map(row -> row.get(0, Long.class)).one().block(PATIENCE);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        ConnectionFactory connectionFactory() {
            return H2ConnectionFactory.inMemory("orders-" + UUID.randomUUID());
        }

        @Bean
        R2dbcTransactionManager transactionManager(ConnectionFactory connections) {
            return new R2dbcTransactionManager(connections);
        }

        @Bean
        DatabaseClient databaseClient(ConnectionFactory connections) {
            return DatabaseClient.create(connections);
        }

        /** Deletes a lock's key in Redis, as another process, an operator or a failover that lost it would. */
        @Bean
        Consumer<String> loseTheLock(StringRedisTemplate redis, RedisLockRegistry registry) {
            return name -> assertThat(redis.delete(registry.keyOf(name))).as("the key of " + name).isTrue();
        }

        @Bean
        Ledger ledger(DatabaseClient db, Consumer<String> loseTheLock) {
            return new Ledger(db, loseTheLock);
        }

        @Bean
        Orders orders(DatabaseClient db, Consumer<String> loseTheLock, Ledger ledger,
                TransactionalOperator operator) {
            return new Orders(db, loseTheLock, ledger, operator);
        }

        @Bean
        SuspendOrders suspendOrders(DatabaseClient db, Consumer<String> loseTheLock) {
            return new SuspendOrders(db, name -> {
                loseTheLock.accept(name);
                return kotlin.Unit.INSTANCE;
            });
        }
    }

    static class Orders {

        private final DatabaseClient db;
        private final Consumer<String> loseTheLock;
        private final Ledger ledger;
        private final TransactionalOperator operator;

        Orders(DatabaseClient db, Consumer<String> loseTheLock, Ledger ledger,
                TransactionalOperator operator) {
            this.db = db;
            this.loseTheLock = loseTheLock;
            this.ledger = ledger;
            this.operator = operator;
        }

        /** The lock, and a transaction begun with Spring Boot's transactional operator inside it. */
        @DistributedLock(name = "'order:' + #id")
        public Mono<Void> placeWithOperator(String id, boolean lose) {
            return operator.transactional(insert(id, lose));
        }

        /** The lock only; the transaction is the ledger's, begun inside the locked pipeline. */
        @DistributedLock(name = "'order:' + #id")
        public Mono<Void> placeThroughLedger(String id, boolean lose) {
            return ledger.record(id, lose).then();
        }

        /** Writes the order; with {@code lose}, its lock's key is deleted in Redis before the commit. */
        @DistributedLock(name = "'order:' + #id")
        @Transactional
        public Mono<Void> place(String id, boolean lose) {
            return insert(id, lose);
        }

        private Mono<Void> insert(String id, boolean lose) {
            return db.sql("insert into orders(id) values (:id)").bind("id", id).then()
                    .then(Mono.fromRunnable(() -> {
                        if (lose) {
                            loseTheLock.accept("order:" + id);
                        }
                    }));
        }
    }

    static class Ledger {

        private final DatabaseClient db;
        private final Consumer<String> loseTheLock;

        Ledger(DatabaseClient db, Consumer<String> loseTheLock) {
            this.db = db;
            this.loseTheLock = loseTheLock;
        }

        /** Writes the order and emits its id; with {@code lose}, the lock's key is deleted before the commit. */
        @Transactional
        public Flux<String> record(String id, boolean lose) {
            return db.sql("insert into orders(id) values (:id)").bind("id", id).then()
                    .thenMany(Flux.defer(() -> {
                        if (lose) {
                            loseTheLock.accept("order:" + id);
                        }
                        return Flux.just(id);
                    }));
        }
    }
}
