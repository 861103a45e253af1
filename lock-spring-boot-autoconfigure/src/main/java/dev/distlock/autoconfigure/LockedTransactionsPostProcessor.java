package dev.distlock.autoconfigure;

import dev.distlock.aop.LockedTransactions;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.ConfigurableTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;

/**
 * Adds {@link LockedTransactions} to every thread-bound transaction manager of the application (its own as well as
 * Spring Boot's), so that a transaction begun inside a {@code @DistributedLock} call does not commit once the call's
 * lock is lost. Not a {@code TransactionExecutionListener} bean itself, which Spring Boot would add a second time.
 */
final class LockedTransactionsPostProcessor implements BeanPostProcessor {

    private final LockedTransactions listener = new LockedTransactions();

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        if (bean instanceof PlatformTransactionManager && bean instanceof ConfigurableTransactionManager manager
                && !manager.getTransactionExecutionListeners().contains(listener)) {
            manager.addListener(listener);
        }
        return bean;
    }
}
