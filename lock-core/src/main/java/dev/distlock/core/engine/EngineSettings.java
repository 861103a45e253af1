package dev.distlock.core.engine;

import dev.distlock.core.LockListener;
import dev.distlock.core.runtime.LockRuntime;
import java.time.Duration;
import java.util.List;

/**
 * What a registry's builder settles for its engine: the lease of a call that names none, the longest pause between a
 * waiter's polls, the listeners, the time and threads, and the name the registry announces itself under.
 *
 * @param defaultLease the lease of a call that names none
 * @param maxPollMillis the longest pause between a waiter's polls of the store
 * @param listeners who hears of the registry's holds and calls
 * @param runtime the time and threads the engine runs on
 * @param applicationName the application the registry announces itself as part of
 */
public record EngineSettings(Duration defaultLease, long maxPollMillis, List<LockListener> listeners,
        LockRuntime runtime, String applicationName) {
}
