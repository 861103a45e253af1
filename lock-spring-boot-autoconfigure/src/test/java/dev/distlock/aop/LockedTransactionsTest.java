package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockLostException;
import dev.distlock.memory.InMemoryLockStore;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabase;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A transaction begun inside a {@code @DistributedLock} call does not commit once the call's lock is lost: with
 * {@link LockedTransactions} on the transaction manager it rolls back; without it, it commits (the old behaviour).
 */
class LockedTransactionsTest {

    private AnnotationConfigApplicationContext context;

    @AfterEach
    void stop() {
        if (context != null) {
            context.close();
        }
    }

    @Test
    void aLockLostBeforeTheCommitRollsTheTransactionBackAndSaysWhich() {
        Orders orders = start(true);

        assertThatThrownBy(() -> orders.place("1", true)).isInstanceOf(LockLostBeforeCommitException.class)
                .hasMessageContaining("'order:1'").hasMessageContaining("no longer holds it")
                .hasMessageContaining("rolled back").hasCauseInstanceOf(LockLostException.class);

        assertThat(rows("1")).isZero();
    }

    @Test
    void aWriteOrAPermitLostBeforeTheCommitRollsTheTransactionBackToo() {
        Orders orders = start(true);

        assertThatThrownBy(() -> orders.placeAsWriter("6")).isInstanceOf(LockLostBeforeCommitException.class)
                .hasMessageContaining("'order:6'");
        assertThatThrownBy(() -> orders.placeWithPermit("7")).isInstanceOf(LockLostBeforeCommitException.class)
                .hasMessageContaining("'order:7'");

        assertThat(rows("6")).isZero();
        assertThat(rows("7")).isZero();
    }

    @Test
    void aLockStillHeldCommits() {
        Orders orders = start(true);

        orders.place("2", false);

        assertThat(rows("2")).isOne();
    }

    @Test
    void aReadOnlyTransactionIsNotCheckedForItWritesNothing() {
        Orders orders = start(true);

        // the read completes; only the release, after it, finds the loss
        assertThatThrownBy(() -> orders.countAfterLosing("5")).isInstanceOf(LockLostException.class)
                .isNotInstanceOf(LockLostBeforeCommitException.class);
    }

    @Test
    void aTransactionOfAnAsynchronousCallRollsBackWhenItsHoldIsLost() {
        Orders orders = start(true);

        assertThatThrownBy(() -> orders.placeLater("3").get()).isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(LockLostBeforeCommitException.class);

        assertThat(rows("3")).isZero();
    }

    @Test
    void withoutTheListenerTheTransactionCommitsAndOnlyTheReleaseReportsTheLoss() {
        Orders orders = start(false);

        assertThatThrownBy(() -> orders.place("4", true)).isInstanceOf(LockLostException.class)
                .isNotInstanceOf(LockLostBeforeCommitException.class);

        assertThat(rows("4")).isOne();
    }

    private Orders start(boolean rollbackOnLoss) {
        context = new AnnotationConfigApplicationContext();
        context.registerBean("rollbackOnLoss", Boolean.class, () -> rollbackOnLoss);
        context.register(Config.class);
        context.refresh();
        return context.getBean(Orders.class);
    }

    private int rows(String id) {
        return context.getBean(JdbcTemplate.class).queryForObject("select count(*) from orders where id = ?",
                Integer.class, id);
    }

    static class Orders {

        private final JdbcTemplate jdbc;
        private final TransactionTemplate transactions;
        private final InMemoryLockStore store;

        Orders(JdbcTemplate jdbc, TransactionTemplate transactions, InMemoryLockStore store) {
            this.jdbc = jdbc;
            this.transactions = transactions;
            this.store = store;
        }

        /**
         * Writes the order; with {@code loseTheLock}, the lock is taken away from outside meanwhile (its 30 s lease
         * never runs out here: only the deletion loses it).
         */
        @DistributedLock(name = "'order:' + #id")
        @Transactional
        public void place(String id, boolean loseTheLock) {
            jdbc.update("insert into orders(id) values (?)", id);
            if (loseTheLock) {
                store.delete("order:" + id);
            }
        }

        /** Writes the order holding the write side of the name's read-write lock, taken away from outside meanwhile. */
        @DistributedLock(name = "'order:' + #id", mode = DistributedLock.Mode.WRITE)
        @Transactional
        public void placeAsWriter(String id) {
            jdbc.update("insert into orders(id) values (?)", id);
            store.delete("order:" + id);
        }

        /** Writes the order holding a permit of the name's semaphore, taken away from outside meanwhile. */
        @DistributedLock(name = "'order:' + #id", permits = 2)
        @Transactional
        public void placeWithPermit(String id) {
            jdbc.update("insert into orders(id) values (?)", id);
            store.delete("order:" + id);
        }

        /** Reads in a read-only transaction while the lock is taken away from outside. */
        @DistributedLock(name = "'order:' + #id")
        @Transactional(readOnly = true)
        public int countAfterLosing(String id) {
            store.delete("order:" + id);
            return jdbc.queryForObject("select count(*) from orders where id = ?", Integer.class, id);
        }

        /** The same in a transaction of its own, on the task executor, under a hold no thread owns. */
        @DistributedLock(name = "'order:' + #id")
        public CompletableFuture<Void> placeLater(String id) {
            transactions.executeWithoutResult(status -> {
                jdbc.update("insert into orders(id) values (?)", id);
                store.delete("order:" + id);
            });
            return CompletableFuture.completedFuture(null);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean(destroyMethod = "shutdown")
        EmbeddedDatabase dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
                    .setName("orders-" + UUID.randomUUID()).build();
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("create table orders (id varchar(20) primary key)");
            return jdbc;
        }

        @Bean
        DataSourceTransactionManager transactionManager(DataSource dataSource, Boolean rollbackOnLoss) {
            DataSourceTransactionManager manager = new DataSourceTransactionManager(dataSource);
            if (rollbackOnLoss) {
                manager.addListener(new LockedTransactions());
            }
            return manager;
        }

        @Bean
        TransactionTemplate transactionTemplate(DataSourceTransactionManager manager) {
            return new TransactionTemplate(manager);
        }

        @Bean
        Orders orders(JdbcTemplate jdbc, TransactionTemplate transactions, InMemoryLockStore store) {
            return new Orders(jdbc, transactions, store);
        }
    }
}
