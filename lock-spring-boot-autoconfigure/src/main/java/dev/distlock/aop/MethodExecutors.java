package dev.distlock.aop;

import java.util.concurrent.Executor;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.task.SimpleAsyncTaskExecutor;
import org.springframework.core.task.TaskExecutor;

/**
 * Where a {@code CompletionStage} method runs once its lock is held: Spring Boot's {@code applicationTaskExecutor}
 * (the one {@code @Async} and Spring MVC use; on virtual threads with {@code spring.threads.virtual.enabled}), else
 * the one {@link TaskExecutor} bean, else the bean named {@code taskExecutor}, else a new thread per call. Never the
 * registry's own threads, which a method that blocks would take from every other lock.
 */
final class MethodExecutors {

    private static final String[] NAMES = {"applicationTaskExecutor", "taskExecutor"};

    private MethodExecutors() {
    }

    static Executor find(BeanFactory beanFactory) {
        if (beanFactory != null) {
            if (beanFactory.containsBean(NAMES[0]) && beanFactory.isTypeMatch(NAMES[0], Executor.class)) {
                return beanFactory.getBean(NAMES[0], Executor.class);
            }
            TaskExecutor unique = beanFactory.getBeanProvider(TaskExecutor.class).getIfUnique();
            if (unique != null) {
                return unique;
            }
            if (beanFactory.containsBean(NAMES[1]) && beanFactory.isTypeMatch(NAMES[1], Executor.class)) {
                return beanFactory.getBean(NAMES[1], Executor.class);
            }
        }
        SimpleAsyncTaskExecutor threads = new SimpleAsyncTaskExecutor("distlock-method-");
        threads.setDaemon(true);
        return threads;
    }
}
