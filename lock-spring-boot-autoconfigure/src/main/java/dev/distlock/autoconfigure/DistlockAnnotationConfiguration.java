package dev.distlock.autoconfigure;

import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.DistributedLockValidator;
import dev.distlock.aop.LockAspectSupport;
import dev.distlock.aop.LockCallObserver;
import dev.distlock.aop.LockOperationSource;
import dev.distlock.aop.ProxyBypassWarnings;
import dev.distlock.core.LockRegistry;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.AdviceMode;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;
import org.springframework.core.env.Environment;

/**
 * The {@code @DistributedLock} machinery: the operations and the lock support every mode shares, the startup
 * validator, and for {@code distlock.advice-mode=proxy} (the default) the advisor Spring's proxies apply. In
 * {@code aspectj} mode the advisor backs off and {@code dev.distlock:lock-aspectj} hands the shared support to its
 * aspect. Advice is created before ordinary beans, so these methods are static, read the properties straight from
 * the environment and resolve the registry only at the first call.
 */
@Configuration(proxyBeanMethods = false)
@Import({DistlockAnnotationConfiguration.ProxyModeConfiguration.class,
        DistlockAnnotationConfiguration.AspectJModeWithoutAspectConfiguration.class})
class DistlockAnnotationConfiguration {

    static final String ADVICE_MODE = "distlock.advice-mode";

    /** The class {@code dev.distlock:lock-aspectj} brings: the aspect its auto-configuration configures. */
    static final String ASPECT_CLASS = "dev.distlock.aspectj.DistributedLockAspect";

    /** The annotated methods' operations, shared by the lock support, the advisor's pointcut and the validator. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockOperationSource distlockOperationSource(Environment environment, BeanFactory beanFactory) {
        DistlockProperties properties = DistlockProperties.bind(environment);
        return new LockOperationSource(DistlockSettings.annotationDefaults(properties), beanFactory,
                properties.getAdviceMode());
    }

    /** Locks the calls, whether the interceptor or the aspect brings them. */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    @ConditionalOnMissingBean
    static LockAspectSupport distlockLockAspectSupport(LockOperationSource operations,
            ObjectProvider<LockRegistry> registry, ObjectProvider<LockCallObserver> observer, BeanFactory beanFactory) {
        return new LockAspectSupport(operations, () -> registry.getIfAvailable(() -> {
            throw new IllegalStateException("@DistributedLock needs a LockRegistry bean, and there is none: add "
                    + "spring-boot-starter-data-redis (one RedisConnectionFactory, or mark one @Primary), set "
                    + "distlock.store=memory for tests, or define a LockRegistry bean");
        }), () -> LockCallObserver.of(observer.orderedStream().toList()), beanFactory);
    }

    @Bean
    @ConditionalOnMissingBean
    static DistributedLockValidator distributedLockValidator(ConfigurableListableBeanFactory beanFactory,
            LockOperationSource operations) {
        return new DistributedLockValidator(beanFactory, operations);
    }

    /** Spring's proxies apply {@code @DistributedLock}. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = ADVICE_MODE, havingValue = "proxy", matchIfMissing = true)
    @Import(LockAutoProxyRegistrar.class)
    static class ProxyModeConfiguration {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        @ConditionalOnMissingBean
        static DistributedLockInterceptor distributedLockInterceptor(LockAspectSupport support) {
            return new DistributedLockInterceptor(support);
        }

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        @ConditionalOnMissingBean
        static DistributedLockAdvisor distributedLockAdvisor(LockOperationSource operations,
                DistributedLockInterceptor interceptor, Environment environment) {
            DistributedLockAdvisor advisor = new DistributedLockAdvisor(operations, interceptor);
            advisor.setOrder(DistlockProperties.bind(environment).getAdvisorOrder());
            return advisor;
        }

        @Bean
        static ProxyBypassWarnings distlockProxyBypassWarnings(ConfigurableListableBeanFactory beanFactory,
                LockOperationSource operations) {
            return new ProxyBypassWarnings(beanFactory, operations);
        }
    }

    /** {@code aspectj} mode without the aspect: fail the startup rather than run every annotated method unlocked. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(name = ADVICE_MODE, havingValue = "aspectj")
    @ConditionalOnMissingClass(ASPECT_CLASS)
    static class AspectJModeWithoutAspectConfiguration {

        @Bean
        static Object distlockAspectJModeCheck() {
            throw DistlockSettings.invalid("advice-mode", AdviceMode.ASPECTJ, "needs the aspect of "
                    + "dev.distlock:lock-aspectj on the classpath, and the application's classes woven with it (the "
                    + "AspectJ compiler with lock-aspectj as an aspect library, or load-time weaving with the "
                    + "aspectjweaver agent); without it no @DistributedLock method would be locked");
        }
    }
}
