package dev.distlock.autoconfigure;

import dev.distlock.aop.LockedTransactionalOperator;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.transaction.reactive.TransactionalOperator;

/**
 * Wraps the application's {@link TransactionalOperator} beans (its own as well as Spring Boot's) in a
 * {@link LockedTransactionalOperator}, so that a reactive transaction begun through one inside a
 * {@code @DistributedLock} pipeline does not commit once the lock is lost.
 */
final class LockedTransactionalOperatorPostProcessor implements BeanPostProcessor {

    @Override
    public Object postProcessAfterInitialization(Object bean, String beanName) {
        return bean instanceof TransactionalOperator operator ? LockedTransactionalOperator.of(operator) : bean;
    }
}
