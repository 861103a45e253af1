package dev.distlock.autoconfigure.test;

import dev.distlock.autoconfigure.DistlockAutoConfiguration;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.TestLocks;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;

/**
 * The {@link TestLocks} bean and its registry as the application's {@link LockRegistry}, ahead of distlock's own
 * (which then backs off). Imported by {@link AutoConfigureTestLocks}, never on its own. The application context, and
 * so the kit, outlives a test: {@link ResetTestLocksTestExecutionListener} resets the kit after each test method.
 */
@AutoConfiguration(before = DistlockAutoConfiguration.class)
@ConditionalOnClass(TestLocks.class)
public class TestLocksAutoConfiguration {

    /** The kit; closing it closes its registries. */
    @Bean(destroyMethod = "close")
    public TestLocks distlockTestLocks() {
        return new TestLocks();
    }

    /** The kit's registry, with the application's lock listeners. */
    @Bean(destroyMethod = "")
    public LockRegistry lockRegistry(TestLocks testLocks, ObjectProvider<LockListener> listeners) {
        return testLocks.newProcess(builder -> listeners.orderedStream().forEach(builder::listener));
    }
}
