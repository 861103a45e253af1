package dev.distlock.core.engine;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;

/**
 * An engine test that finishes within 3.5 s or fails, on a thread of its own so that a call that never returns fails
 * it too. Each of these tests takes milliseconds; the limit only tells a hung engine (a lost wake-up, a retry that
 * never ends) from a slow machine, and lies below the mutation profile's per-test limit (4 s more than the test's
 * normal time), so that a mutant that makes the engine hang fails the test rather than timing it out.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Timeout(value = 3500, unit = TimeUnit.MILLISECONDS, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
public @interface BoundedTest {
}
