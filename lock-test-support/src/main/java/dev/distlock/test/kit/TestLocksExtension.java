package dev.distlock.test.kit;

import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;

/**
 * Gives each test method (and its {@code @BeforeEach}/{@code @AfterEach} methods) a fresh {@link TestLocks} as a
 * parameter, and closes it when the test ends, so no lock, fault, journal or registry of one test reaches the next.
 *
 * <pre>{@code
 * @ExtendWith(TestLocksExtension.class)
 * class JobTest {
 *     @Test
 *     void runsAlone(TestLocks locks) { ... }
 * }
 * }</pre>
 */
public final class TestLocksExtension implements ParameterResolver {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(TestLocksExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == TestLocks.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        // stored per test method: closed by JUnit when that test's context closes
        ExtensionContext scope = context.getTestMethod().isPresent() ? context : context.getRoot();
        return scope.getStore(NAMESPACE).getOrComputeIfAbsent(Kit.class, key -> new Kit(new TestLocks()), Kit.class)
                .locks;
    }

    /** The kit as a resource JUnit closes with the test's context. */
    private record Kit(TestLocks locks) implements ExtensionContext.Store.CloseableResource {

        @Override
        public void close() {
            locks.reset();
            locks.close();
        }
    }
}
