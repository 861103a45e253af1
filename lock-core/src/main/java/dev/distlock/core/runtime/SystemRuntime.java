package dev.distlock.core.runtime;

import java.util.concurrent.ThreadLocalRandom;
import java.util.random.RandomGenerator;

/** {@link LockRuntime#system()}: the system's clocks, thread-local random numbers and {@link SystemExecutors}. */
final class SystemRuntime implements LockRuntime {

    static final SystemRuntime INSTANCE = new SystemRuntime();

    private SystemRuntime() {
    }

    @Override
    public long nanoTime() {
        return System.nanoTime();
    }

    @Override
    public long currentTimeMillis() {
        return System.currentTimeMillis();
    }

    @Override
    public RandomGenerator random() {
        return ThreadLocalRandom.current();
    }

    @Override
    public EngineExecutors newExecutors() {
        return new SystemExecutors();
    }
}
