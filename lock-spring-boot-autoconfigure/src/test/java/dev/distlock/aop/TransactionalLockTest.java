package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockEvent;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.aop.Advisor;
import org.springframework.aop.framework.Advised;
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
import org.springframework.transaction.interceptor.BeanFactoryTransactionAttributeSourceAdvisor;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

/**
 * The lock wraps {@code @Transactional} on a real transaction manager (H2 + DataSourceTransactionManager):
 * acquired before the transaction begins, released after it commits or rolls back, so the next holder
 * always reads the previous holder's committed write.
 */
class TransactionalLockTest {

    private AnnotationConfigApplicationContext context;
    private Counter counter;
    private Observations observations;

    @BeforeEach
    void start() {
        context = new AnnotationConfigApplicationContext(Config.class);
        counter = context.getBean(Counter.class);
        observations = context.getBean(Observations.class);
    }

    @AfterEach
    void stop() {
        context.close();
    }

    @Test
    void theLockAdvisorRunsOutsideTheTransactionAdvisor() {
        Advisor[] advisors = ((Advised) counter).getAdvisors();

        assertThat(advisors).hasSize(2);
        assertThat(advisors[0]).isInstanceOf(DistributedLockAdvisor.class);
        assertThat(advisors[1]).isInstanceOf(BeanFactoryTransactionAttributeSourceAdvisor.class);
    }

    @Test
    void concurrentReadThenWriteIncrementsInsideTransactionsLoseNoUpdate() throws Exception {
        int threads = 4;
        int rounds = 25;

        ConcurrentCalls.repeat(threads, rounds, Duration.ofSeconds(120), () -> counter.increment(1));

        assertThat(counter.value(1)).isEqualTo(threads * rounds);
        assertThat(observations.problems).isEmpty();
        assertThat(observations.completions).hasSize(threads * rounds)
                .allMatch(completion -> completion.equals("committed while locked"));
        assertThat(observations.lockEvents).hasSize(2 * threads * rounds)
                .allMatch(event -> event.endsWith("outside a transaction"));
    }

    @Test
    void aRollbackAlsoCompletesWhileTheLockIsHeld() {
        assertThatThrownBy(() -> counter.incrementThenFail(1)).isInstanceOf(IllegalStateException.class);

        assertThat(counter.value(1)).isZero();
        assertThat(observations.problems).isEmpty();
        assertThat(observations.completions).containsExactly("rolled back while locked");
        assertThat(observations.lockEvents).containsExactly("acquired outside a transaction",
                "released outside a transaction");
        assertThat(context.getBean(LockRegistry.class).obtain("counter:1").isLocked()).isFalse();
    }

    /** What the method, the transaction's completion callback and the lock listener saw. */
    static class Observations implements LockListener {

        final Queue<String> problems = new ConcurrentLinkedQueue<>();
        final Queue<String> completions = new ConcurrentLinkedQueue<>();
        final Queue<String> lockEvents = new ConcurrentLinkedQueue<>();

        @Override
        public void onAcquired(LockEvent event) {
            lockEvents.add("acquired " + transactionState());
        }

        @Override
        public void onReleased(LockEvent event) {
            lockEvents.add("released " + transactionState());
        }

        private static String transactionState() {
            return TransactionSynchronizationManager.isActualTransactionActive() ? "inside a transaction"
                    : "outside a transaction";
        }

        /** Called inside the method: the transaction is active and the lock held; watches the completion. */
        void insideMethod() {
            if (!TransactionSynchronizationManager.isActualTransactionActive()) {
                problems.add("no transaction inside the method");
            }
            LockContext lock = LockContext.current();
            if (!lock.isHeld()) {
                problems.add("lock not held inside the method");
            }
            TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {
                @Override
                public void afterCompletion(int status) {
                    String outcome = status == STATUS_COMMITTED ? "committed" : "rolled back";
                    completions.add(outcome + (lock.isHeld() ? " while locked" : " after the release"));
                }
            });
        }
    }

    static class Counter {

        private final JdbcTemplate jdbc;
        private final Observations observations;

        Counter(JdbcTemplate jdbc, Observations observations) {
            this.jdbc = jdbc;
            this.observations = observations;
        }

        /** Reads, then writes: without the lock around the transaction, concurrent calls lose updates. */
        @DistributedLock(name = "'counter:' + #id")
        @Transactional
        public void increment(int id) {
            observations.insideMethod();
            Integer value = jdbc.queryForObject("select counter_value from counter where id = ?", Integer.class, id);
            Thread.yield();
            jdbc.update("update counter set counter_value = ? where id = ?", value + 1, id);
        }

        @DistributedLock(name = "'counter:' + #id")
        @Transactional
        public void incrementThenFail(int id) {
            increment(id);
            throw new IllegalStateException("roll back");
        }

        public int value(int id) {
            Integer value = jdbc.queryForObject("select counter_value from counter where id = ?", Integer.class, id);
            return value != null ? value : -1;
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableTransactionManagement
    @Import(LockTestConfiguration.class)
    static class Config {

        @Bean(destroyMethod = "shutdown")
        EmbeddedDatabase dataSource() {
            return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2).generateUniqueName(true).build();
        }

        @Bean
        DataSourceTransactionManager transactionManager(DataSource dataSource) {
            return new DataSourceTransactionManager(dataSource);
        }

        @Bean
        JdbcTemplate jdbcTemplate(DataSource dataSource) {
            JdbcTemplate jdbc = new JdbcTemplate(dataSource);
            jdbc.execute("create table counter (id int primary key, counter_value int not null)");
            jdbc.update("insert into counter (id, counter_value) values (1, 0)");
            return jdbc;
        }

        @Bean
        Observations observations() {
            return new Observations();
        }

        @Bean
        Counter counter(JdbcTemplate jdbcTemplate, Observations observations) {
            return new Counter(jdbcTemplate, observations);
        }
    }
}
