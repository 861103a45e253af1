package dev.distlock.autoconfigure.test;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;

/**
 * On a Spring Boot test: the application's {@link dev.distlock.core.LockRegistry} becomes the registry of a
 * {@link dev.distlock.test.kit.TestLocks} bean (in memory, on a manual clock), so {@code @DistributedLock} methods
 * lock on it and the test can inject the {@code TestLocks} to move time, expire or lose locks, make store calls fail
 * and check the journal. Needs {@code lock-test-support} on the test class path.
 *
 * <p>The application context, and so the kit, outlives a test method: after each one
 * {@link ResetTestLocksTestExecutionListener} resets the kit ({@link dev.distlock.test.kit.TestLocks#reset()}: every
 * lock freed, the journal and the failures not met yet forgotten; time goes on), and fails the test if the
 * application's {@code LockRegistry} still held a lock (see {@link #failOnHeldLocks()}).
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(TestLocksAutoConfiguration.class)
public @interface AutoConfigureTestLocks {

    /**
     * Whether a test method fails when the application's {@code LockRegistry} still holds a lock after it: a lock the
     * application took and never released, or work still running when the test ended, is usually a bug the test
     * should show. The holds are ended either way, so the next test starts clean. Locks the test gave to others
     * ({@code TestLocks.lose}, a registry from {@code TestLocks.newProcess}) never count. Set to {@code false} for
     * tests that end holding a lock on purpose.
     */
    boolean failOnHeldLocks() default true;
}
