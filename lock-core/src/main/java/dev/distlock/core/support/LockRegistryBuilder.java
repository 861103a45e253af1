package dev.distlock.core.support;

import dev.distlock.core.Lease;
import dev.distlock.core.LockListener;
import dev.distlock.core.LockRegistry;
import dev.distlock.core.runtime.LockRuntime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Settings every registry shares ({@link StoreLockRegistry}); backends extend it with their own.
 *
 * @param <B> the concrete builder
 */
public abstract class LockRegistryBuilder<B extends LockRegistryBuilder<B>> {

    /** The longest poll interval accepted: an hour. */
    public static final Duration MAX_POLL_INTERVAL = Duration.ofHours(1);

    private Duration defaultLease = Duration.ofSeconds(30);
    private Duration maxPollInterval = Duration.ofMillis(500);
    private String applicationName;
    private LockRuntime runtime = LockRuntime.system();
    private final List<LockListener> listeners = new ArrayList<>();

    /**
     * The lease of holds obtained with {@link Lease#renewed()} (default 30s); the watchdog renews it
     * every third of its length. A crashed holder blocks others for at most this long. Between
     * {@link Lease#MIN_RENEWED} and {@link Lease#MAX}.
     */
    public B defaultLease(Duration lease) {
        Lease.checkedMillis(lease, "defaultLease", true);
        this.defaultLease = lease;
        return self();
    }

    /**
     * The longest a waiter sleeps before asking the backend again when no hand-off notice arrives
     * (default 500ms, at most an hour). Notices normally wake waiters at once; this bounds the delay when
     * one is lost. Waiters also wake when the holder's lease runs out. A waiter's place in the queue lives
     * this long plus as much again (at least 500ms) after its last visit, which bounds how long a waiter
     * that died blocks the lock: about twice that (2 seconds by default).
     */
    public B maxPollInterval(Duration interval) {
        Objects.requireNonNull(interval, "maxPollInterval");
        if (interval.toMillis() < 1 || interval.compareTo(MAX_POLL_INTERVAL) > 0) {
            throw new IllegalArgumentException("maxPollInterval must be between 1ms and 1 hour, got " + interval);
        }
        this.maxPollInterval = interval;
        return self();
    }

    /** The configured {@link #maxPollInterval(Duration)} in milliseconds. */
    protected long maxPollIntervalMillis() {
        return maxPollInterval.toMillis();
    }

    Duration defaultLease() {
        return defaultLease;
    }

    String applicationName() {
        return applicationName;
    }

    List<LockListener> listeners() {
        return listeners;
    }

    /**
     * The name of the application this registry runs in (with Spring Boot, {@code spring.application.name}),
     * shown to operators who ask any process who holds or waits for a lock ({@link LockRegistry#inspect}); optional.
     */
    public B applicationName(String name) {
        this.applicationName = name;
        return self();
    }

    /**
     * The time, randomness and threads the registry runs on (default {@link LockRuntime#system()}); a virtual runtime
     * lets a test or a simulation move time and choose the order of the engine's work.
     */
    public B runtime(LockRuntime runtime) {
        this.runtime = Objects.requireNonNull(runtime, "runtime");
        return self();
    }

    LockRuntime runtime() {
        return runtime;
    }

    /** Adds a listener told of acquisitions, releases, losses and failures. */
    public B listener(LockListener listener) {
        this.listeners.add(Objects.requireNonNull(listener, "listener"));
        return self();
    }

    @SuppressWarnings("unchecked")
    private B self() {
        return (B) this;
    }
}
