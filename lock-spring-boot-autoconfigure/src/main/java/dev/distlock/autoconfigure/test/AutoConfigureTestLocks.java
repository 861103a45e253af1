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
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ImportAutoConfiguration(TestLocksAutoConfiguration.class)
public @interface AutoConfigureTestLocks {
}
