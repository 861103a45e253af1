package dev.distlock.test;

import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * The lifecycle shared by the harness's JUnit 5 extensions ({@link RedisServerExtension}, {@code
 * RedisClusterExtension}, {@code RedisSentinelExtension}): what they run starts once before all tests of the class
 * (nested classes reuse it) and is closed after them; before each test it is reset to a clean, healthy state. If the
 * extension is registered in a non-static field (with the default per-method lifecycle), it starts before each test
 * and is closed after it instead. Not meant for concurrent test execution within one class.
 *
 * @param <T> what the extension runs
 */
public abstract class RedisExtensionSupport<T extends AutoCloseable>
        implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

    private final Supplier<T> starter;
    private final Consumer<T> resetter;
    private T running;
    private String startedBy;
    private boolean startedPerTest;

    /**
     * For subclasses.
     *
     * @param starter starts what the extension runs; fails (never skips) when it cannot
     * @param resetter brings what a previous test may have damaged back to a clean, healthy state
     */
    protected RedisExtensionSupport(Supplier<T> starter, Consumer<T> resetter) {
        this.starter = Objects.requireNonNull(starter, "starter");
        this.resetter = Objects.requireNonNull(resetter, "resetter");
    }

    /**
     * What the extension runs.
     *
     * @return the running resource
     * @throws IllegalStateException outside the lifecycle of the test class
     */
    protected final synchronized T running() {
        if (running == null) {
            throw new IllegalStateException(getClass().getSimpleName() + " is not running: register it in a static "
                    + "@RegisterExtension field and use it from tests and from @BeforeAll, @BeforeEach or @AfterEach "
                    + "methods");
        }
        return running;
    }

    /** Starts (once; nested test classes reuse what the enclosing class started). */
    @Override
    public final synchronized void beforeAll(ExtensionContext context) {
        if (running == null) {
            running = starter.get();
            startedBy = context.getUniqueId();
        }
    }

    /** Resets to a clean, healthy state; starts if not started yet. */
    @Override
    public final synchronized void beforeEach(ExtensionContext context) {
        if (running == null) {
            running = starter.get();
            startedPerTest = true;
            return; // freshly started is clean
        }
        resetter.accept(running);
    }

    /** Closes if started for this test only (non-static registration). */
    @Override
    public final synchronized void afterEach(ExtensionContext context) {
        if (startedPerTest) {
            startedPerTest = false;
            closeRunning();
        }
    }

    /** Closes, in the class that started. */
    @Override
    public final synchronized void afterAll(ExtensionContext context) {
        if (context.getUniqueId().equals(startedBy)) {
            startedBy = null;
            closeRunning();
        }
    }

    private void closeRunning() {
        T resource = running;
        running = null;
        try {
            resource.close();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("cannot close " + resource, e);
        }
    }
}
