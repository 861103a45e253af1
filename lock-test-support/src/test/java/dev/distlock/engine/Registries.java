package dev.distlock.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.distlock.test.contract.Background;
import dev.distlock.test.scripted.ScriptedLockRegistry;
import dev.distlock.test.scripted.ScriptedLockStore;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.UnaryOperator;

/**
 * Registries on one {@link ScriptedLockStore}, each standing for a process, closed after the test; and the
 * small tools the engine's fault tests share.
 */
final class Registries implements AutoCloseable {

    static final Duration PATIENCE = Duration.ofSeconds(10);

    final ScriptedLockStore store = new ScriptedLockStore();
    private final Deque<ScriptedLockRegistry> open = new ArrayDeque<>();

    /** A registry ("a process") reporting to {@code events}. */
    ScriptedLockRegistry process(Events events) {
        return process(events, UnaryOperator.identity());
    }

    ScriptedLockRegistry process(Events events, UnaryOperator<ScriptedLockRegistry.Builder> settings) {
        ScriptedLockRegistry registry = settings.apply(ScriptedLockRegistry.on(store).listener(events)).build();
        open.push(registry);
        return registry;
    }

    @Override
    public void close() {
        store.close();
        while (!open.isEmpty()) {
            open.pop().close();
        }
    }

    /** Polls {@code condition} until it holds, for at most {@link #PATIENCE}. */
    static void awaitUntil(BooleanSupplier condition) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("condition not met within " + PATIENCE).isNegative();
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(2));
        }
    }

    /** Calls {@code work} on another thread and returns its result. */
    static <T> T inOtherThread(Callable<T> work) throws Exception {
        return new Background<>("other", work).get();
    }
}
