package dev.distlock.core.support;

import dev.distlock.core.DetachedLock;
import dev.distlock.core.FencedLock;
import dev.distlock.core.Lease;
import dev.distlock.core.LockRegistry;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * A lock on several names at once ({@link LockRegistry#obtainAll}): held when the current thread holds every one of
 * its names. The names are taken one after another in one canonical order (sorted, each once), whatever order the
 * caller listed them in, so callers locking overlapping sets never wait for each other in a cycle. One acquisition
 * of the engine takes them all within one wait ({@link NamesAcquisition}), or none: what it had is given back
 * without waiting for the backend. Each name keeps its own fencing token.
 */
final class StoreNamesLock implements FencedLock {

    private final StoreLockRegistry registry;
    private final List<String> names;
    private final List<FencedLock> locks;
    private final Lease lease;
    private final String label;
    private final String name;

    private StoreNamesLock(StoreLockRegistry registry, List<String> names, Lease lease, String label) {
        this.registry = registry;
        this.names = names;
        this.lease = lease;
        this.label = label;
        this.locks = names.stream().map(each -> registry.obtain(each, lease, label)).toList();
        this.name = names.toString();
    }

    /** The lock on {@code names} (one name's own lock when they come down to one). */
    static FencedLock of(StoreLockRegistry registry, Collection<String> names, Lease lease, String label) {
        Objects.requireNonNull(names, "names");
        TreeSet<String> canonical = new TreeSet<>();
        for (String each : names) {
            canonical.add(Objects.requireNonNull(each, "a name of the set"));
        }
        if (canonical.isEmpty()) {
            throw new IllegalArgumentException("obtainAll needs at least one name");
        }
        canonical.forEach(LockNames::validate);
        Objects.requireNonNull(lease, "lease");
        return canonical.size() == 1 ? registry.obtain(canonical.first(), lease, label)
                : new StoreNamesLock(registry, List.copyOf(canonical), lease, label);
    }

    /** The names in their canonical order, e.g. {@code [sku:a, sku:b]}. */
    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean tryLock(Duration wait) throws InterruptedException {
        return registry.acquirer().acquireAll(names, lease, label, StoreLock.waitNanos(wait), true);
    }

    @Override
    public boolean tryLock() {
        try {
            return registry.acquirer().acquireAll(names, lease, label, 0, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lock() {
        try {
            registry.acquirer().acquireAll(names, lease, label, Long.MAX_VALUE, false);
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible acquire threw InterruptedException", ex);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        registry.acquirer().acquireAll(names, lease, label, Long.MAX_VALUE, true);
    }

    /** Releases every name, the last taken first; the first failure is thrown with the others added to it. */
    @Override
    public void unlock() {
        unlockAll(locks);
    }

    @Override
    public void unlockAfter(Duration delay) {
        Objects.requireNonNull(delay, "delay");
        eachInReverse(locks, lock -> lock.unlockAfter(delay));
    }

    /** Whether any of the names is locked, by anyone. */
    @Override
    public boolean isLocked() {
        return locks.stream().anyMatch(FencedLock::isLocked);
    }

    /** Whether the current thread holds every name. */
    @Override
    public boolean isHeldByCurrentThread() {
        return locks.stream().allMatch(FencedLock::isHeldByCurrentThread);
    }

    @Override
    public int holdCount() {
        return locks.stream().mapToInt(FencedLock::holdCount).min().orElse(0);
    }

    /**
     * Not one token: each name has its own ({@link #fencingTokens()}).
     *
     * @throws IllegalStateException always
     */
    @Override
    public long fencingToken() {
        throw noSingleToken(name);
    }

    @Override
    public Map<String, Long> fencingTokens() {
        return tokens(locks, FencedLock::name, FencedLock::fencingToken);
    }

    /** Why a lock on several names has no one fencing token. */
    static IllegalStateException noSingleToken(String name) {
        return new IllegalStateException("Lock " + name + " holds several names, each with a fencing token of its "
                + "own: use fencingTokens()");
    }

    /** Each name's fencing token, in the names' order. */
    static <L> Map<String, Long> tokens(List<L> each, Function<L, String> name, ToLongFunction<L> token) {
        Map<String, Long> tokens = new LinkedHashMap<>();
        each.forEach(one -> tokens.put(name.apply(one), token.applyAsLong(one)));
        return tokens;
    }

    @Override
    public void extend(Duration lease) {
        locks.forEach(lock -> lock.extend(lease));
    }

    /** The shortest of the names' remaining leases. */
    @Override
    public Duration remainingLease() {
        return locks.stream().map(FencedLock::remainingLease).min(Duration::compareTo).orElseThrow();
    }

    @Override
    public void verifyHeld() {
        locks.forEach(FencedLock::verifyHeld);
    }

    @Override
    public DetachedLock detach() {
        if (!isHeldByCurrentThread()) {
            throw new IllegalMonitorStateException("Lock " + name + " is not held by the current thread ("
                    + Thread.currentThread().getName() + ")");
        }
        return new StoreDetachedNames(name, locks.stream().map(FencedLock::detach).toList());
    }

    @Override
    public CompletionStage<DetachedLock> tryLockAsync(Duration wait) {
        return registry.acquirer().acquireAllAsync(names, lease, label, StoreLock.waitNanos(wait));
    }

    @Override
    public CompletionStage<DetachedLock> lockAsync() {
        return registry.acquirer().acquireAllAsync(names, lease, label, Long.MAX_VALUE);
    }

    private static void unlockAll(List<FencedLock> held) {
        eachInReverse(held, FencedLock::unlock);
    }

    /** Runs {@code action} on each, the last first, all of them whatever fails; throws the first failure. */
    static <L> void eachInReverse(List<L> items, Consumer<L> action) {
        RuntimeException first = null;
        for (int i = items.size() - 1; i >= 0; i--) {
            try {
                action.accept(items.get(i));
            } catch (RuntimeException failure) {
                if (first == null) {
                    first = failure;
                } else {
                    first.addSuppressed(failure);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof StoreNamesLock multi && multi.locks.equals(locks);
    }

    @Override
    public int hashCode() {
        return locks.hashCode();
    }

    @Override
    public String toString() {
        return "FencedLock" + name;
    }
}
