package dev.distlock.test.kit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(TestLocksExtension.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TestLocksExtensionTest {

    private static final AtomicReference<TestLocks> FIRST = new AtomicReference<>();

    @Test
    @Order(1)
    void aTestThatLeavesALockHeld(TestLocks locks) {
        FIRST.set(locks);
        assertThat(locks.registry().obtain("job").tryLock()).isTrue();
        locks.failNext(StoreOp.RELEASE, "job", new IllegalStateException("never met"));
    }

    @Test
    @Order(2)
    void theNextTestGetsAFreshKitAndTheOldOneWasReset(TestLocks locks) {
        assertThat(locks).isNotSameAs(FIRST.get());
        locks.assertNothingHeld();
        FIRST.get().assertNothingHeld();
        assertThat(locks.registry().obtain("job").tryLock()).isTrue();
    }
}
