package dev.distlock.autoconfigure.test;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.FencedLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.StoreOp;
import dev.distlock.test.kit.TestLocks;
import java.time.Duration;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;

/**
 * The first test leaves the kit dirty; the second, on the same cached context, finds it clean (without the reset
 * listener it would not).
 */
@SpringBootTest(classes = ResetTestLocksBetweenTestsTest.App.class, properties = "distlock.store=memory")
@AutoConfigureTestLocks
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ResetTestLocksBetweenTestsTest {

    private static final Duration FIRST_TEST_ADVANCE = Duration.ofMinutes(10);

    private static TestLocks firstKit;

    @Autowired
    private TestLocks locks;

    @Autowired
    private LockRegistry registry;

    @Test
    @Order(1)
    void aTestLeavesAHoldAJournalEntryAndAScriptedFailureBehind() {
        firstKit = locks;
        locks.lose("held");
        locks.journal().run("job", () -> { });
        locks.failNext(StoreOp.TRY_ACQUIRE, "failing", new IllegalStateException("store down"));
        locks.advance(FIRST_TEST_ADVANCE);

        assertThat(locks.isHeld("held")).isTrue();
        assertThat(locks.journal().sections("job")).hasSize(1);
    }

    @Test
    @Order(2)
    void theNextTestOnTheSameContextFindsNoneOfThem() {
        assertThat(locks).as("the cached context's kit").isSameAs(firstKit);

        assertThat(locks.isHeld("held")).isFalse();
        locks.assertNothingHeld();
        assertThat(locks.journal().sections("job")).isEmpty();
        FencedLock failing = registry.obtain("failing");
        assertThat(failing.tryLock()).isTrue();
        failing.unlock();
        FencedLock held = registry.obtain("held");
        assertThat(held.tryLock()).isTrue();
        held.unlock();
        // time goes on: the application's registry and its timers run on the kit's clock
        assertThat(locks.clock().elapsed()).isGreaterThanOrEqualTo(FIRST_TEST_ADVANCE);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class App {
    }
}
