package dev.distlock.memory;

import dev.distlock.core.support.AcquireResult;
import dev.distlock.core.support.LockStore;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

/**
 * A lock backend in memory: what Redis is to the Redis registry. Several {@link InMemoryLockRegistry}s on
 * one store exclude each other like processes on one Redis. Leases expire by the store's {@link Clock}, so
 * tests can move time forward instead of waiting; fencing tokens follow the same rule as on Redis (the
 * last plus one while the count lives, else the clock in microseconds), and so does the queue of waiters
 * that releases hand the lock to.
 *
 * <p>{@link #delete(String)} and {@link #overwrite(String, String)} stand for someone else changing the
 * backend, for tests of lock loss.
 */
public final class InMemoryLockStore implements LockStore {

    private static final int SWEEP_EVERY = 1024;

    private final Clock clock;
    private final Duration fenceRetention;
    private final Map<String, Held> holds = new HashMap<>();
    private final Map<String, Timed> fences = new HashMap<>();
    private final Map<String, Deque<Waiter>> queues = new HashMap<>();
    private final Map<String, LongConsumer> grantListeners = new ConcurrentHashMap<>();
    private int acquisitionsSinceSweep;

    /** A store on the system clock whose fencing token counts restart from the clock every hour. */
    public InMemoryLockStore() {
        this(Clock.systemUTC(), Duration.ofHours(1));
    }

    /** A store whose leases expire by {@code clock}. */
    public InMemoryLockStore(Clock clock, Duration fenceRetention) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.fenceRetention = Objects.requireNonNull(fenceRetention, "fenceRetention");
    }

    @Override
    public synchronized AcquireResult tryAcquire(String name, String token, long leaseMillis, Queue queue) {
        long now = clock.millis();
        Held current = live(name, now);
        if (current == null) {
            if (queue == Queue.STAY) {
                leave(name, token);
            }
            sweepNowAndThen(now);
            return AcquireResult.acquired(hold(name, token, leaseMillis, now).fencingToken());
        }
        if (current.token().equals(token)) {
            return AcquireResult.acquired(current.fencingToken());
        }
        if (queue != Queue.NONE) {
            Deque<Waiter> waiters = queues.computeIfAbsent(name, key -> new ArrayDeque<>());
            if (waiters.stream().noneMatch(waiter -> waiter.token().equals(token))) {
                waiters.addLast(new Waiter(token, leaseMillis));
            }
        }
        return AcquireResult.heldByOther(current.expiresAt() == Long.MAX_VALUE ? -1 : current.expiresAt() - now);
    }

    @Override
    public synchronized AcquireResult leaveQueue(String name, String token, long leaseMillis) {
        leave(name, token);
        Held current = live(name, clock.millis());
        return current != null && current.token().equals(token)
                ? AcquireResult.acquired(current.fencingToken())
                : AcquireResult.heldByOther(-1);
    }

    @Override
    public boolean release(String name, String token) {
        Held next;
        synchronized (this) {
            if (!ownedBy(name, token)) {
                return false;
            }
            holds.remove(name);
            Deque<Waiter> waiters = queues.get(name);
            Waiter first = waiters != null ? waiters.pollFirst() : null;
            if (waiters != null && waiters.isEmpty()) {
                queues.remove(name);
            }
            next = first != null ? hold(name, first.token(), first.leaseMillis(), clock.millis()) : null;
        }
        LongConsumer onGrant = next != null ? grantListeners.get(next.token()) : null;
        if (onGrant != null) {
            onGrant.accept(next.fencingToken());
        }
        return true;
    }

    @Override
    public synchronized boolean extend(String name, String token, long leaseMillis) {
        if (!ownedBy(name, token)) {
            return false;
        }
        Held current = holds.get(name);
        holds.put(name, new Held(token, clock.millis() + leaseMillis, current.fencingToken()));
        return true;
    }

    @Override
    public synchronized long remainingLeaseMillis(String name, String token) {
        if (!ownedBy(name, token)) {
            return -1;
        }
        long expiresAt = holds.get(name).expiresAt();
        return expiresAt == Long.MAX_VALUE ? Long.MAX_VALUE : Math.max(0, expiresAt - clock.millis());
    }

    @Override
    public synchronized boolean isLocked(String name) {
        return live(name, clock.millis()) != null;
    }

    /** Always: hand-offs in memory are heard at once. */
    @Override
    public boolean listening(String name) {
        return true;
    }

    @Override
    public Subscription onGrant(String name, String token, LongConsumer onGrant) {
        grantListeners.put(token, onGrant);
        return () -> grantListeners.remove(token, onGrant);
    }

    /** Does nothing: the store may be shared by several registries. */
    @Override
    public void close() {
    }

    /** Deletes the lock as an outsider would (a test of lock loss). Nobody is told; waiters find out by polling. */
    public synchronized void delete(String name) {
        holds.remove(name);
    }

    /** Replaces the lock's owner by {@code token}, without expiry, as an outsider would. */
    public synchronized void overwrite(String name, String token) {
        holds.put(name, new Held(token, Long.MAX_VALUE, 0));
    }

    /** How many acquisitions wait in the queue for {@code name}, for tests. */
    public synchronized int waitersQueued(String name) {
        Deque<Waiter> waiters = queues.get(name);
        return waiters != null ? waiters.size() : 0;
    }

    /** Names held now, for tests. */
    public synchronized List<String> heldNames() {
        long now = clock.millis();
        return holds.entrySet().stream().filter(e -> e.getValue().expiresAt > now).map(Map.Entry::getKey).toList();
    }

    private boolean ownedBy(String name, String token) {
        Held current = live(name, clock.millis());
        return current != null && current.token().equals(token);
    }

    /** Gives the lock to {@code token} with the next fencing token. */
    private Held hold(String name, String token, long leaseMillis, long now) {
        Timed last = fences.get(name);
        Timed next = last != null && last.expiresAt() > now
                ? new Timed(Long.toString(Long.parseLong(last.value()) + 1), last.expiresAt())
                : new Timed(Long.toString(micros(clock.instant())), now + fenceRetention.toMillis());
        fences.put(name, next);
        long fence = Long.parseLong(next.value());
        Held held = new Held(token, now + leaseMillis, fence);
        holds.put(name, held);
        return held;
    }

    private void leave(String name, String token) {
        Deque<Waiter> waiters = queues.get(name);
        if (waiters != null && waiters.removeIf(waiter -> waiter.token().equals(token)) && waiters.isEmpty()) {
            queues.remove(name);
        }
    }

    private Held live(String name, long now) {
        Held held = holds.get(name);
        if (held != null && held.expiresAt() <= now) {
            holds.remove(name);
            return null;
        }
        return held;
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

    private record Held(String token, long expiresAt, long fencingToken) {
    }

    private record Waiter(String token, long leaseMillis) {
    }
}
