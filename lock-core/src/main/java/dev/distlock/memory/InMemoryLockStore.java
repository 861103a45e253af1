package dev.distlock.memory;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A lock backend in memory: what Redis is to the Redis registry. Several {@link InMemoryLockRegistry}s on
 * one store exclude each other like processes on one Redis. Leases expire by the store's {@link Clock}, so
 * tests can move time forward instead of waiting; fencing tokens follow the same rule as on Redis
 * (max(last + 1, clock in microseconds)).
 *
 * <p>{@link #delete(String)} and {@link #overwrite(String, String)} stand for someone else changing the
 * backend, for tests of lock loss.
 */
public final class InMemoryLockStore implements LockStore {

    private static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final Duration fenceRetention;
    private final Map<String, Timed> holds = new HashMap<>();
    private final Map<String, Timed> fences = new HashMap<>();
    private final Map<String, Set<Runnable>> releaseListeners = new ConcurrentHashMap<>();
    private int acquisitionsSinceSweep;

    /** A store on the system clock that keeps fencing tokens for an hour after their last use. */
    public InMemoryLockStore() {
        this(Clock.systemUTC(), Duration.ofHours(1));
    }

    /** A store whose leases expire by {@code clock}. */
    public InMemoryLockStore(Clock clock, Duration fenceRetention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.fenceRetention = Objects.requireNonNull(fenceRetention, "fenceRetention");
    }

    @Override
    public synchronized AcquireResult tryAcquire(String name, String token, long leaseMillis, boolean waiting) {
        long now = clock.millis();
        Timed current = live(holds, name, now);
        if (current != null) {
            return AcquireResult.heldByOther(current.expiresAt == Long.MAX_VALUE ? -1 : current.expiresAt - now);
        }
        sweepNowAndThen(now);
        holds.put(name, new Timed(token, now + leaseMillis));
        Timed lastFence = live(fences, name, now);
        long fence = Math.max(lastFence != null ? Long.parseLong(lastFence.value) + 1 : 0, micros(clock.instant()));
        fences.put(name, new Timed(Long.toString(fence), now + fenceRetention.toMillis()));
        return AcquireResult.acquired(fence);
    }

    @Override
    public boolean release(String name, String token) {
        synchronized (this) {
            if (!ownedBy(name, token)) {
                return false;
            }
            holds.remove(name);
        }
        releaseListeners.getOrDefault(name, Set.of()).forEach(Runnable::run);
        return true;
    }

    @Override
    public synchronized boolean extend(String name, String token, long leaseMillis) {
        if (!ownedBy(name, token)) {
            return false;
        }
        holds.put(name, new Timed(token, clock.millis() + leaseMillis));
        return true;
    }

    @Override
    public synchronized long remainingLeaseMillis(String name, String token) {
        if (!ownedBy(name, token)) {
            return -1;
        }
        long expiresAt = holds.get(name).expiresAt;
        return expiresAt == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, expiresAt - clock.millis());
    }

    @Override
    public synchronized boolean isLocked(String name) {
        return live(holds, name, clock.millis()) != null;
    }

    @Override
    public Subscription onRelease(String name, Runnable onRelease) {
        releaseListeners.computeIfAbsent(name, key -> ConcurrentHashMap.newKeySet()).add(onRelease);
        return () -> releaseListeners.computeIfPresent(name, (key, listeners) -> {
            listeners.remove(onRelease);
            return listeners.isEmpty() ? null : listeners;
        });
    }

    /** Does nothing: the store may be shared by several registries. */
    @Override
    public void close() {
    }

    /** Deletes the lock as an outsider would (a test of lock loss). No release notice is sent. */
    public synchronized void delete(String name) {
        holds.remove(name);
    }

    /** Replaces the lock's owner by {@code token}, without expiry, as an outsider would. */
    public synchronized void overwrite(String name, String token) {
        holds.put(name, new Timed(token, Long.MAX_VALUE));
    }

    /** Names held now, for tests. */
    public synchronized List<String> heldNames() {
        long now = clock.millis();
        return holds.entrySet().stream().filter(e -> e.getValue().expiresAt > now).map(Map.Entry::getKey).toList();
    }

    private boolean ownedBy(String name, String token) {
        Timed current = live(holds, name, clock.millis());
        return current != null && current.value.equals(token);
    }

    private static Timed live(Map<String, Timed> map, String name, long now) {
        Timed timed = map.get(name);
        if (timed != null && timed.expiresAt <= now) {
            map.remove(name);
            return null;
        }
        return timed;
    }

    /** Drops expired entries now and then, so names used once do not stay in memory. */
    private void sweepNowAndThen(long now) {
        if (++acquisitionsSinceSweep < SWEEP_EVERY) {
            return;
        }
        acquisitionsSinceSweep = 0;
        holds.values().removeIf(timed -> timed.expiresAt <= now);
        fences.values().removeIf(timed -> timed.expiresAt <= now);
    }

    private static long micros(Instant instant) {
        return TimeUnit.SECONDS.toMicros(instant.getEpochSecond()) + instant.getNano() / 1_000;
    }

    private record Timed(String value, long expiresAt) {
    }
}
