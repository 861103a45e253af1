package dev.distlock.autoconfigure.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.TestLocks;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * Holds the application's registry still has after a test (opted out of failing) are ended, on the test's thread and
 * on others, so the next test takes those locks afresh from the store.
 */
@SpringBootTest(classes = ResetTestLocksLeftHoldsTest.App.class, properties = "distlock.store=memory")
@AutoConfigureTestLocks(failOnHeldLocks = false)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResetTestLocksLeftHoldsTest {

    @Autowired
    private TestLocks locks;

    @Autowired
    private LockRegistry registry;

    @Test
    @Order(1)
    void aTestEndsHoldingLocksOnItsThreadAndOnAnother() throws Exception {
        FencedLock own = registry.obtain("own");
        own.lock();
        own.lock();
        Thread other = new Thread(() -> registry.obtain("other").lock());
        other.start();
        other.join(TimeUnit.SECONDS.toMillis(10));

        assertThat(other.isAlive()).isFalse();
        assertThat(own.holdCount()).isEqualTo(2);
        assertThat(locks.isHeld("own")).isTrue();
        assertThat(locks.isHeld("other")).isTrue();
    }

    @Test
    @Order(2)
    void theNextTestTakesThemFromTheStoreAgain() {
        assertThat(registry.heldLocks()).isEmpty();

        FencedLock own = registry.obtain("own");
        assertThat(own.tryLock()).isTrue();
        assertThat(own.holdCount()).as("a new hold, not the last test's re-entered").isEqualTo(1);
        assertThat(locks.isHeld("own")).isTrue();
        FencedLock other = registry.obtain("other");
        assertThat(other.tryLock()).isTrue();
        assertThat(locks.isHeld("other")).isTrue();

        own.unlock();
        other.unlock();
        locks.assertNothingHeld();
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
