package dev.distlock.autoconfigure.test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.TestLocks;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.test.context.TestContext;

class ResetTestLocksTestExecutionListenerTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(TestLocksAutoConfiguration.class));

    private final ResetTestLocksTestExecutionListener listener = new ResetTestLocksTestExecutionListener();

    @Test
    void aTestThatLeftTheApplicationsRegistryHoldingALockFailsNamingItAndTheAttribute() {
        runner.run(context -> {
            FencedLock lock = context.getBean(LockRegistry.class).obtain("job");
            lock.lock();

            assertThatThrownBy(() -> listener.afterTestMethod(testOf(DefaultSettings.class, context)))
                    .isInstanceOf(AssertionError.class)
                    .hasMessageContaining("[job]")
                    .hasMessageContaining("@AutoConfigureTestLocks(failOnHeldLocks = false)");
            assertThat(lock.holdCount()).isZero();
            context.getBean(TestLocks.class).assertNothingHeld();
        });
    }

    @Test
    void aTestThatOptedOutEndsItsHoldsWithoutFailing() {
        runner.run(context -> {
            FencedLock lock = context.getBean(LockRegistry.class).obtain("job");
            lock.lock();

            assertThatCode(() -> listener.afterTestMethod(testOf(HeldLocksAllowed.class, context)))
                    .doesNotThrowAnyException();
            assertThat(lock.holdCount()).isZero();
            context.getBean(TestLocks.class).assertNothingHeld();
        });
    }

    @Test
    void locksTheTestGaveToOthersDoNotFailIt() {
        runner.run(context -> {
            TestLocks locks = context.getBean(TestLocks.class);
            locks.lose("taken");
            assertThat(locks.newProcess().obtain("elsewhere").tryLock()).isTrue();

            assertThatCode(() -> listener.afterTestMethod(testOf(DefaultSettings.class, context)))
                    .doesNotThrowAnyException();
            locks.assertNothingHeld();
        });
    }

    @Test
    void aTestWhoseContextIsNotLoadedLeavesItUnloaded() throws Exception {
        TestContext test = mock(TestContext.class);
        given(test.hasApplicationContext()).willReturn(false);

        listener.afterTestMethod(test);

        verify(test, never()).getApplicationContext();
    }

    @Test
    void aContextWithoutTheKitIsLeftAlone() {
        new ApplicationContextRunner().run(context -> {
            assertThatCode(() -> listener.afterTestMethod(testOf(DefaultSettings.class, context)))
                    .doesNotThrowAnyException();
            assertThat(context).doesNotHaveBean(TestLocks.class);
        });
    }

    private static TestContext testOf(Class<?> testClass, ApplicationContext context) {
        TestContext test = mock(TestContext.class);
        given(test.hasApplicationContext()).willReturn(true);
        given(test.getApplicationContext()).willReturn(context);
        given(test.getTestClass()).willAnswer(invocation -> testClass);
        return test;
    }

    @AutoConfigureTestLocks
    static class DefaultSettings {
    }

    @AutoConfigureTestLocks(failOnHeldLocks = false)
    static class HeldLocksAllowed {
    }
}
