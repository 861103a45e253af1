package dev.distlock.autoconfigure;

import dev.distlock.aop.LockedReactiveTransactionsAdvisor;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Role;
import org.springframework.transaction.interceptor.TransactionAttributeSource;

/**
 * A lost lock fails the commit of a transaction begun inside its {@code @DistributedLock} call
 * ({@code distlock.transaction.rollback-on-loss}, on by default): thread-bound transactions through a listener on
 * their transaction managers, reactive ones through an advisor inside {@code @Transactional} and the application's
 * {@code TransactionalOperator} beans. After Spring Boot's transaction configuration, so that this advisor is
 * registered after the transaction advisor of the same order.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class, afterName = {
        "org.springframework.boot.transaction.autoconfigure.TransactionAutoConfiguration",
        "org.springframework.boot.autoconfigure.transaction.TransactionAutoConfiguration"})
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "distlock.transaction.rollback-on-loss", matchIfMissing = true)
@ConditionalOnClass(name = "org.springframework.transaction.ConfigurableTransactionManager")
public final class DistlockTransactionAutoConfiguration {

    @Bean
    static LockedTransactionsPostProcessor distlockLockedTransactions() {
        return new LockedTransactionsPostProcessor();
    }

    /** Reactive transactions, checked inside {@code @Transactional} and inside the work of a transactional operator. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = {"reactor.core.publisher.Mono",
            "org.springframework.transaction.reactive.TransactionSynchronizationManager"})
    static class ReactiveTransactionConfiguration {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static LockedReactiveTransactionsAdvisor distlockLockedReactiveTransactionsAdvisor(
                ObjectProvider<TransactionAttributeSource> transactions) {
            return new LockedReactiveTransactionsAdvisor(transactions::getIfUnique);
        }

        @Bean
        static ReactiveCommitGuardOrder distlockReactiveCommitGuardOrder(ListableBeanFactory beans) {
            return new ReactiveCommitGuardOrder(beans);
        }

        @Bean
        static LockedTransactionalOperatorPostProcessor distlockLockedTransactionalOperators() {
            return new LockedTransactionalOperatorPostProcessor();
        }
    }
}
