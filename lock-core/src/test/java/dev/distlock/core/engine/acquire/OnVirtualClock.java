package dev.distlock.core.engine.acquire;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.engine.EngineFixtures;
import dev.distlock.core.engine.FaultyStore;
import dev.distlock.core.engine.VirtualRuntime;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;

/**
 * A registry on a clock moved by hand ({@link VirtualRuntime}) over a {@link FaultyStore}, polling at most every 30 s,
 * for the acquisition's tests. It is closed with {@code closeAsync()} after each test: a blocking {@code close()}
 * would wait on that clock, and a mutant that leaves a call behind would block it, and the run, for good.
 */
abstract class OnVirtualClock {

    static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    final VirtualRuntime clock = new VirtualRuntime();
    final FaultyStore store;
    final EngineFixtures.TestRegistry registry;

    OnVirtualClock() {
        this(new FaultyStore(), UnaryOperator.identity());
    }

    OnVirtualClock(FaultyStore store, UnaryOperator<EngineFixtures.RegistrySettings> settings) {
        this.store = store;
        this.registry = EngineFixtures.registry(store,
                settings.apply(EngineFixtures.settings().runtime(clock).maxPollInterval(Duration.ofSeconds(30))));
    }

    @AfterEach
    void closeRegistry() {
        registry.closeAsync();
        clock.runPending();
    }

    CompletableFuture<DetachedLock> tryLock(String name, Duration wait) {
        return registry.obtain(name).tryLockAsync(wait).toCompletableFuture();
    }

    /** The tries this registry sent for {@code name} (the test's own, as "other", left out). */
    long tries(String name) {
        return store.sent.stream().filter(command -> command.startsWith("tryAcquire " + name + " "))
                .filter(command -> !command.endsWith(" other")).count();
    }

    /** {@code name} taken in the store by another process, "other"; its fencing token. */
    long heldByOther(String name) {
        return store.tryAcquire(name, "other", 30_000, false, 1_000).fencingToken();
    }
}
