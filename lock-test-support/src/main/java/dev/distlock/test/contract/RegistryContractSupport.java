package dev.distlock.test.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;

/**
 * What the registry contracts share: registries on one backend (each stands for another process), closed after
 * each test, and bounded helpers for work in other threads. An implementation's test extends
 * {@link LockRegistryContract} (or {@link QueuedLockRegistryContract}), which includes every contract.
 *
 * <p>Timing: leases and waits are short so the suites are quick, but every assertion is about order and
 * outcome, never about speed; every wait is bounded.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public abstract class RegistryContractSupport {

    /** Long enough for anything that should happen at once, on a loaded machine. */
    protected static final Duration PATIENCE = Duration.ofSeconds(10);

    private final List<AutoCloseable> registries = new ArrayList<>();
    private final List<AutoCloseable> resources = new ArrayList<>();

    /** The poll interval of registries the tests do not set one for: the registries' default. */
    protected static final Duration DEFAULT_POLL_INTERVAL = Duration.ofMillis(500);

    /**
     * A new registry on the shared backend, standing for another process, reporting to {@code listener}, whose
     * waiters ask the backend again at least every {@code maxPollInterval} when they hear no hand-off.
     */
    protected abstract LockRegistry newRegistry(LockListener listener, Duration maxPollInterval) throws Exception;

    /** Deletes the lock's key in the backend, as an administrator or a buggy client would. */
    protected abstract void deleteFromOutside(LockRegistry registry, String name) throws Exception;

    /** Replaces the lock's owner in the backend by {@code value}, without expiry. */
    protected abstract void overwriteFromOutside(LockRegistry registry, String name, String value) throws Exception;

    /** A new registry without listener. */
    protected final LockRegistry registry() throws Exception {
        return registry(new RecordingListener());
    }

    /** A new registry reporting to {@code listener}; closed after the test. */
    protected final LockRegistry registry(LockListener listener) throws Exception {
        return registry(listener, DEFAULT_POLL_INTERVAL);
    }

    /** A new registry reporting to {@code listener} and polling every {@code maxPollInterval}; closed after the test. */
    protected final LockRegistry registry(LockListener listener, Duration maxPollInterval) throws Exception {
        LockRegistry registry = newRegistry(listener, maxPollInterval);
        if (registry instanceof AutoCloseable closeable) {
            registries.add(closeable);
        }
        return registry;
    }

    /** Closes {@code resource} after the test, once the registries are closed (e.g. a connection factory). */
    protected final void closeAfterTest(AutoCloseable resource) {
        resources.add(resource);
    }

    @AfterEach
    void closeRegistries() throws Exception {
        for (AutoCloseable closeable : registries) {
            closeable.close();
        }
        for (AutoCloseable closeable : resources) {
            closeable.close();
        }
        registries.clear();
        resources.clear();
    }

    // --- helpers ---

    /**
     * Whether another thread acquires {@code lock} within {@code wait}; that thread ends holding it, which
     * is enough for the tests (the registry is closed and the backend cleared afterwards).
     */
    protected static boolean acquiresInOtherThread(FencedLock lock, Duration wait) throws Exception {
        Boolean acquired = inOtherThread(() -> lock.tryLock(wait));
        return acquired;
    }

    /** Polls the backend until {@code condition} holds, for at most {@link #PATIENCE}. */
    protected static void awaitUntil(Callable<Boolean> condition) throws Exception {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.call()) {
            assertThat(System.nanoTime()).as("condition not met within " + PATIENCE).isLessThan(deadline);
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
        }
    }

    /** Lock {@code name} held by another registry, as another process would hold it, until the hold is released. */
    protected final DetachedLock heldElsewhere(String name) throws Exception {
        return registry().obtain(name).lockAsync().toCompletableFuture().get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
    }

    /** Runs {@code action} in another thread and returns its result, or throws what it threw. */
    protected static <T> T inOtherThread(Callable<T> action) throws Exception {
        return new Background<>("contract-other", action).get();
    }
}
