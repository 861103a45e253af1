package dev.distlock.aop;

import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import dev.distlock.memory.InMemoryLockStore;
import java.time.Duration;
import org.springframework.aop.config.AopConfigUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.BeanDefinitionRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.ImportBeanDefinitionRegistrar;
import org.springframework.context.annotation.Role;
import org.springframework.core.type.AnnotationMetadata;

/**
 * What the auto-configuration will register, in plain Spring ({@link Advice}), over an in-memory registry
 * whose store other registries can share ("other processes").
 */
@Configuration(proxyBeanMethods = false)
@Import(LockTestConfiguration.Advice.class)
class LockTestConfiguration {

    /** Long enough never to run out on a loaded machine when the test releases the lock. */
    static final LockDefaults DEFAULTS = new LockDefaults(Duration.ofSeconds(30), Duration.ofSeconds(30), true);

    @Bean
    InMemoryLockStore lockStore() {
        return new InMemoryLockStore();
    }

    @Bean(destroyMethod = "close")
    InMemoryLockRegistry lockRegistry(InMemoryLockStore lockStore, ObjectProvider<LockListener> listeners) {
        InMemoryLockRegistry.Builder builder = InMemoryLockRegistry.builder().store(lockStore);
        listeners.orderedStream().forEach(builder::listener);
        return builder.build();
    }

    /**
     * Spring's infrastructure auto-proxy creator, the interceptor, the infrastructure-role advisor and the
     * validator, for whatever {@link LockRegistry} bean the context has.
     */
    @Configuration(proxyBeanMethods = false)
    @Import(AutoProxy.class)
    static class Advice {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockInterceptor distributedLockInterceptor(ObjectProvider<LockRegistry> registry,
                ObjectProvider<LockDefaults> defaults, ObjectProvider<LockCallObserver> observers,
                BeanFactory beanFactory) {
            return new DistributedLockInterceptor(registry::getObject, defaults.getIfAvailable(() -> DEFAULTS),
                    beanFactory, () -> LockCallObserver.of(observers.orderedStream().toList()));
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockAdvisor distributedLockAdvisor(DistributedLockInterceptor distributedLockInterceptor) {
            return new DistributedLockAdvisor(distributedLockInterceptor);
        }

        @Bean
        static DistributedLockValidator distributedLockValidator(ConfigurableListableBeanFactory beanFactory,
                DistributedLockInterceptor distributedLockInterceptor) {
            return new DistributedLockValidator(beanFactory, distributedLockInterceptor);
        }
    }

    /** Registers Spring's infrastructure advisor auto-proxy creator, as @EnableTransactionManagement does. */
    static class AutoProxy implements ImportBeanDefinitionRegistrar {

        @Override
        public void registerBeanDefinitions(AnnotationMetadata metadata, BeanDefinitionRegistry registry) {
            AopConfigUtils.registerAutoProxyCreatorIfNecessary(registry);
        }
    }
}
