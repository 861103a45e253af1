package dev.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.annotation.DistributedLock;
import dev.distlock.aop.DistributedLockAdvisor;
import dev.distlock.aop.DistributedLockInterceptor;
import dev.distlock.aop.LockAspectSupport;
import dev.distlock.aop.ProxyBypassWarnings;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code distlock.advice-mode}: proxies (the default) warn about the annotated methods they do not intercept; the
 * AspectJ mode refuses to start without the aspect (lock-aspectj's tests and samples/woven-service show it with).
 */
@ExtendWith(OutputCaptureExtension.class)
class AdviceModeTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withPropertyValues("distlock.store=memory")
            .withConfiguration(AutoConfigurations.of(DistlockAutoConfiguration.class));

    @Test
    void aJdkProxyWarnsOnceNamingTheAnnotatedMethodsNoInterfaceDeclares(CapturedOutput output) {
        runner.withPropertyValues("spring.aop.proxy-target-class=false").withUserConfiguration(Jobs.class)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    assertThat(AopUtils.isJdkDynamicProxy(context.getBean("jobs"))).isTrue();
                });
        String warning = warningsOf(output);
        assertThat(warning).contains("Bean 'jobs'", "WITHOUT the lock", "distlock.advice-mode=aspectj")
                .contains(JobsImpl.class.getName() + ".nightly (package-private, not declared by an interface")
                .contains(JobsImpl.class.getName() + ".weekly (not declared by an interface")
                .doesNotContain(".hourly");
        assertThat(warning.lines().filter(line -> line.contains("Bean 'jobs'"))).hasSize(1);
    }

    @Test
    void aClassBasedProxyInterceptsTheSameMethodsAndDoesNotWarn(CapturedOutput output) {
        runner.withUserConfiguration(Jobs.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(AopUtils.isCglibProxy(context.getBean("jobs"))).isTrue();
        });
        assertThat(warningsOf(output)).isEmpty();
    }

    @Test
    void proxyModeHasTheAdvisorAndTheWarnings() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(DistributedLockAdvisor.class);
            assertThat(context).hasSingleBean(DistributedLockInterceptor.class);
            assertThat(context).hasSingleBean(LockAspectSupport.class);
            assertThat(context).hasSingleBean(ProxyBypassWarnings.class);
        });
    }

    @Test
    void theAspectJModeWithoutTheAspectFailsTheStartupSayingWhatIsMissing() {
        runner.withPropertyValues("distlock.advice-mode=aspectj").run(context -> {
            assertThat(context).hasFailed();
            assertThat(context.getStartupFailure()).rootCause()
                    .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                    .hasMessageContaining("distlock.advice-mode").hasMessageContaining("dev.distlock:lock-aspectj");
        });
    }

    private static String warningsOf(CapturedOutput output) {
        return String.join("\n", output.getAll().lines()
                .filter(line -> line.contains("WARN") && line.contains(ProxyBypassWarnings.class.getSimpleName()))
                .toList());
    }

    /** A job interface declaring only one of the annotated methods. */
    interface Hourly {

        String hourly();
    }

    static class JobsImpl implements Hourly {

        @Override
        @DistributedLock(name = "hourly")
        public String hourly() {
            return "hourly";
        }

        @DistributedLock(name = "nightly")
        String nightly() {
            return "nightly";
        }

        @DistributedLock(name = "weekly")
        public String weekly() {
            return "weekly";
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        JobsImpl jobs() {
            return new JobsImpl();
        }
    }
}
