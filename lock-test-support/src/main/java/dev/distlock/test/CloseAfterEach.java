package dev.distlock.test;

import java.util.ArrayDeque;
import java.util.Deque;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Closes what a test opened, after each test, last opened first (registries before their connection
 * factories). Register it in an instance field:
 *
 * <pre>{@code
 * @RegisterExtension
 * final CloseAfterEach closeables = new CloseAfterEach();
 * ...
 * closeables.push(factory::destroy);
 * closeables.push(registry);
 * }</pre>
 *
 * <p>Every resource is closed even if one fails; the first failure is rethrown with the others suppressed.
 */
public final class CloseAfterEach implements AfterEachCallback {

    private final Deque<AutoCloseable> resources = new ArrayDeque<>();

    /** Closes {@code resource} after the test, before everything pushed earlier. */
    public synchronized void push(AutoCloseable resource) {
        resources.push(resource);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        Exception failure = null;
        while (true) {
            AutoCloseable resource;
            synchronized (this) {
                if (resources.isEmpty()) {
                    break;
                }
                resource = resources.pop();
            }
            try {
                resource.close();
            } catch (Exception ex) {
                if (failure == null) {
                    failure = ex;
                } else {
                    failure.addSuppressed(ex);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
