package dev.distlock.aop;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.memory.InMemoryLockRegistry;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.AnnotationConfigApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.context.annotation.Role;

/** Which methods the advisor locks, its order, and how it gets its registry. */
class DistributedLockAdvisorTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withUserConfiguration(LockTestConfiguration.class);

    @Test
    void aClassLevelAnnotationLocksThePublicMethodsButNotTheObjectMethods() {
        runner.withBean(ClassLevel.class).run(context -> {
            ClassLevel bean = context.getBean(ClassLevel.class);

            assertThat(bean.work()).contains("ClassLevel");
            // equals and hashCode are answered by the proxy itself; toString reaches the target
            assertThat(bean.toString()).isEqualTo("no lock");
        });
    }

    @Test
    void anAnnotationOnAnInterfaceMethodLocksTheImplementationBehindAJdkProxy() {
        runner.withBean(Reports.class, NightlyReports::new).run(context -> {
            Reports reports = context.getBean(Reports.class);

            assertThat(AopUtils.isJdkDynamicProxy(reports)).isTrue();
            assertThat(reports.run("r1")).contains("report:r1");
            assertThat(reports.unlocked()).isEmpty();
        });
    }

    @Test
    void annotationsAreInheritedFromSuperclassesAndOverriddenMethods() {
        runner.withBean(Subclass.class).run(context -> {
            Subclass bean = context.getBean(Subclass.class);

            assertThat(bean.overridden()).contains("base-method");
            assertThat(bean.inheritedFromClass()).contains("Subclass.inheritedFromClass");
        });
    }

    @Test
    void aComposedAnnotationCounts() {
        runner.withBean(Composed.class).run(context -> assertThat(context.getBean(Composed.class).work())
                .contains("composed"));
    }

    @Test
    void beansWithoutTheAnnotationAreNotProxied() {
        runner.withBean(Plain.class).run(context -> assertThat(AopUtils.isAopProxy(context.getBean(Plain.class)))
                .isFalse());
    }

    @Test
    void theAdvisorRunsOutsideTransactionsByDefaultAndItsOrderCanBeSet() {
        DistributedLockAdvisor advisor = new DistributedLockAdvisor(new DistributedLockInterceptor(
                InMemoryLockRegistry.builder()::build, LockTestConfiguration.DEFAULTS, null));

        assertThat(advisor.getOrder()).isEqualTo(DistributedLockAdvisor.DEFAULT_ORDER)
                .isEqualTo(Integer.MAX_VALUE - 1000);
        advisor.setOrder(5);
        assertThat(advisor.getOrder()).isEqualTo(5);
    }

    @Test
    void theRegistryIsAskedForAtTheFirstLockedCallOnlyOnce() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(LazyRegistry.class)) {
            LazyRegistry config = context.getBean(LazyRegistry.class);
            Composed bean = context.getBean(Composed.class);
            assertThat(LazyRegistry.lookups).hasValue(0);

            bean.work();
            bean.work();

            assertThat(LazyRegistry.lookups).hasValue(1);
            assertThat(config).isNotNull();
        }
    }

    @Test
    void withoutTheValidatorAnInvalidDeclarationFailsEachCallWithItsProblem() {
        try (AnnotationConfigApplicationContext context = new AnnotationConfigApplicationContext(NoValidator.class)) {
            assertThatThrownBy(() -> context.getBean(Invalid.class).work()).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("Invalid.work").hasMessageContaining("timeout 'soon' is not a duration");
        }
    }

    @DistributedLock(name = "#root.targetClass.simpleName")
    static class ClassLevel {

        public String work() {
            return LockContext.current().key();
        }

        @Override
        public String toString() {
            return LockContext.find().isPresent() ? "locked" : "no lock";
        }
    }

    interface Reports {

        @DistributedLock(name = "'report:' + #p0")
        Optional<String> run(String id);

        Optional<String> unlocked();
    }

    static class NightlyReports implements Reports {

        @Override
        public Optional<String> run(String id) {
            return LockContext.find().map(LockContext::key);
        }

        @Override
        public Optional<String> unlocked() {
            return LockContext.find().map(LockContext::key);
        }
    }

    @DistributedLock(name = "#root.targetClass.simpleName + '.' + #root.methodName")
    static class Base {

        @DistributedLock(name = "base-method")
        public Optional<String> overridden() {
            return Optional.empty();
        }

        public Optional<String> inheritedFromClass() {
            return LockContext.find().map(LockContext::key);
        }
    }

    static class Subclass extends Base {

        @Override
        public Optional<String> overridden() {
            return LockContext.find().map(LockContext::key);
        }
    }

    @Target(ElementType.METHOD)
    @Retention(RetentionPolicy.RUNTIME)
    @DistributedLock(name = "composed", timeout = "0")
    @interface ComposedLock {
    }

    static class Composed {

        @ComposedLock
        public Optional<String> work() {
            return LockContext.find().map(LockContext::key);
        }
    }

    static class Plain {

        public String work() {
            return "plain";
        }
    }

    static class Invalid {

        @DistributedLock(name = "x", timeout = "soon")
        public void work() {
        }
    }

    /** Like {@link LockTestConfiguration}, with a registry supplier that counts lookups. */
    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.AutoProxy.class)
    static class LazyRegistry {

        static final AtomicInteger lookups = new AtomicInteger();

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockAdvisor distributedLockAdvisor(BeanFactory beanFactory) {
            lookups.set(0);
            return new DistributedLockAdvisor(new DistributedLockInterceptor(() -> {
                lookups.incrementAndGet();
                return beanFactory.getBean(LockRegistry.class);
            }, LockTestConfiguration.DEFAULTS, beanFactory));
        }

        @Bean(destroyMethod = "close")
        InMemoryLockRegistry lockRegistry() {
            return InMemoryLockRegistry.builder().build();
        }

        @Bean
        Composed composed() {
            return new Composed();
        }
    }

    /** The advisor without the validator. */
    @Configuration(proxyBeanMethods = false)
    @Import(LockTestConfiguration.AutoProxy.class)
    static class NoValidator {

        @Bean
        @Role(BeanDefinition.ROLE_INFRASTRUCTURE)
        static DistributedLockAdvisor distributedLockAdvisor(BeanFactory beanFactory) {
            return new DistributedLockAdvisor(new DistributedLockInterceptor(InMemoryLockRegistry.builder()::build,
                    LockTestConfiguration.DEFAULTS, beanFactory));
        }

        @Bean
        Invalid invalid() {
            return new Invalid();
        }
    }
}
