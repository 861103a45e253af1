package dev.distlock.autoconfigure.test;

import org.springframework.core.Ordered;
import org.springframework.test.context.TestContext;
import org.springframework.test.context.TestContextAnnotationUtils;
import org.springframework.test.context.TestExecutionListener;
import org.springframework.test.context.support.AbstractTestExecutionListener;
import org.springframework.util.ClassUtils;

/**
 * A {@link TestExecutionListener} (registered in {@code META-INF/spring.factories}) that resets the test kit of a
 * test's application context after each test method, because the context, and so the kit, is cached and shared by
 * later tests: it ends the holds the application's {@code LockRegistry} still has, then calls
 * {@link dev.distlock.test.kit.TestLocks#reset()} on every {@code TestLocks} bean (every lock freed, the journal and
 * the failures not met yet forgotten; time goes on). If the application's registry held a lock, the test then fails
 * unless {@link AutoConfigureTestLocks#failOnHeldLocks()} is {@code false}.
 *
 * <p>It never creates an application context, and does nothing without {@code lock-test-support} on the class path or
 * without a {@code TestLocks} bean in the context. It runs before {@code DirtiesContextTestExecutionListener} closes a
 * context, as Spring Boot's reset of Mockito mocks does.
 */
public class ResetTestLocksTestExecutionListener extends AbstractTestExecutionListener {

    private static final boolean KIT_PRESENT = ClassUtils.isPresent("dev.distlock.test.kit.TestLocks",
            ResetTestLocksTestExecutionListener.class.getClassLoader());

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE - 100;
    }

    @Override
    public void afterTestMethod(TestContext testContext) {
        if (KIT_PRESENT && testContext.hasApplicationContext()) {
            TestLocksReset.afterTest(testContext.getApplicationContext(), failOnHeldLocks(testContext.getTestClass()));
        }
    }

    private static boolean failOnHeldLocks(Class<?> testClass) {
        AutoConfigureTestLocks settings = TestContextAnnotationUtils.findMergedAnnotation(testClass,
                AutoConfigureTestLocks.class);
        return settings == null || settings.failOnHeldLocks();
    }
}
