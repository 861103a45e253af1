package dev.distlock.test.kit;

import dev.distlock.core.LockRegistry;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** The extension's example in docs/testing.md, as it stands there. */
@ExtendWith(TestLocksExtension.class)
class JobTest {

    @Test
    void runsTheJobUnderItsLock(TestLocks locks) {
        LockRegistry registry = locks.registry();
        registry.executeLocked("job", Duration.ofSeconds(1), () -> locks.journal().run("job", () -> { }));
        locks.assertRanUnderLock("job");
        locks.assertNothingHeld();
    }
}
