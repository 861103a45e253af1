package dev.distlock.aspectj;

import dev.distlock.aop.LockAspectSupport;
import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import org.aspectj.lang.Aspects;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Role;

/**
 * With {@code distlock.advice-mode=aspectj}, configures the {@link DistributedLockAspect} with the lock support the
 * starter creates (the one the proxies' interceptor would use), as Spring configures
 * {@code AnnotationCacheAspect.aspectOf()} for {@code @EnableCaching(mode = AdviceMode.ASPECTJ)}; the starter's
 * advisor backs off in this mode.
 *
 * @since 0.1.0
 */
@AutoConfiguration(after = DistlockAutoConfiguration.class)
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnProperty(name = "distlock.advice-mode", havingValue = "aspectj")
public final class DistlockAspectJAutoConfiguration {

    /**
     * A post-processor only so that Spring creates it before every ordinary bean, whose initialisation may already
     * call a locked method.
     */
    @Bean
    @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
    static AspectBinding distlockAspectBinding(LockAspectSupport support) {
        return new AspectBinding(Aspects.aspectOf(DistributedLockAspect.class), support);
    }

    /** Refuses to start with annotated methods that were not woven: nothing would lock their calls. */
    @Bean
    static WovenMethods distlockWovenMethods(ConfigurableListableBeanFactory beanFactory) {
        return new WovenMethods(beanFactory);
    }

    /** Configures the aspect while the application context runs. */
    static final class AspectBinding implements BeanPostProcessor, DisposableBean {

        private final DistributedLockAspect aspect;
        private final LockAspectSupport support;

        AspectBinding(DistributedLockAspect aspect, LockAspectSupport support) {
            this.aspect = aspect;
            this.support = support;
            aspect.configure(support);
        }

        @Override
        public void destroy() {
            aspect.release(support);
        }
    }
}
