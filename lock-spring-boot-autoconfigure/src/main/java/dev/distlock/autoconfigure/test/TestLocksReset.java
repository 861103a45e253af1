package dev.distlock.autoconfigure.test;

import dev.distlock.core.DistributedLockException;
import dev.distlock.core.FencedLock;
import dev.distlock.core.HeldLock;
import dev.distlock.core.LockRegistry;
import dev.distlock.test.kit.TestLocks;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.springframework.context.ApplicationContext;

/**
 * The reset {@link ResetTestLocksTestExecutionListener} runs after a test method; apart from the listener so that
 * only a class path with {@code lock-test-support} loads it.
 */
final class TestLocksReset {

    private TestLocksReset() {
    }

    /**
     * Ends the holds of the context's {@link LockRegistry} beans (the current thread's by releasing them, the others'
     * by freeing the store, which their holders then notice), resets every {@link TestLocks} bean and, if
     * {@code failOnHeldLocks}, fails when a registry held a lock.
     *
     * @throws AssertionError naming the locks the application's registry held
     */
    static void afterTest(ApplicationContext context, boolean failOnHeldLocks) {
        Map<String, TestLocks> kits = context.getBeansOfType(TestLocks.class, false, false);
        if (kits.isEmpty()) {
            return;
        }
        Collection<LockRegistry> registries = context.getBeansOfType(LockRegistry.class, false, false).values();
        List<String> held = new ArrayList<>();
        try {
            for (LockRegistry registry : registries) {
                held.addAll(releaseOwnHolds(registry));
            }
        } finally {
            kits.values().forEach(TestLocks::reset);
            // reading each hold's lease finds it gone: the holder counts it lost and lets the name's other callers on
            registries.forEach(LockRegistry::heldLocks);
        }
        if (failOnHeldLocks && !held.isEmpty()) {
            throw new AssertionError("The application's LockRegistry still held " + held + " after the test; the test"
                    + " kit ended those holds. Release every lock the test takes and wait for work that holds one, or"
                    + " set @AutoConfigureTestLocks(failOnHeldLocks = false) if the test ends holding a lock on"
                    + " purpose.");
        }
    }

    /** Releases the holds of {@code registry} owned by the current thread; returns the names of all its holds. */
    private static Collection<String> releaseOwnHolds(LockRegistry registry) {
        TreeSet<String> names = new TreeSet<>();
        for (HeldLock hold : registry.heldLocks()) {
            names.add(hold.name());
        }
        for (String name : names) {
            FencedLock lock = registry.obtain(name);
            for (int count = lock.holdCount(); count > 0 && lock.holdCount() > 0; count--) { // one unlock per count
                try {
                    lock.unlock();
                } catch (DistributedLockException ended) {
                    // lost or not confirmed by the store: the hold is over for its holder either way
                }
            }
        }
        return names;
    }
}
