package dev.distlock.core;

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
 * caller listed them in, so callers locking overlapping sets never wait for each other in a cycle; an acquisition
 * that cannot have them all within its wait gives back those it had, without waiting for the backend
 * ({@link BlockingNamesAcquisition}, {@link NamesAcquisition}). Each name keeps its own fencing token.
 */
final class MultiNameLock implements FencedLock {

    /** Longer waits are as good as forever, and keep the deadline's arithmetic from overflowing. */
    private static final long FOREVER_NANOS = Duration.ofDays(365 * 100).toNanos();

    private final List<FencedLock> locks;
    private final String name;

    private MultiNameLock(List<FencedLock> locks) {
        this.locks = locks;
        this.name = locks.stream().map(FencedLock::name).toList().toString();
    }

    /** The lock on {@code names} (one name's own lock when they come down to one). */
    static FencedLock of(LockRegistry registry, Collection<String> names, Lease lease, String label) {
        Objects.requireNonNull(names, "names");
        TreeSet<String> canonical = new TreeSet<>();
        for (String each : names) {
            canonical.add(Objects.requireNonNull(each, "a name of the set"));
        }
        if (canonical.isEmpty()) {
            throw new IllegalArgumentException("obtainAll needs at least one name");
        }
        List<FencedLock> locks = canonical.stream().map(each -> registry.obtain(each, lease, label)).toList();
        return locks.size() == 1 ? locks.get(0) : new MultiNameLock(locks);
    }

    /** The names in their canonical order, e.g. {@code [sku:a, sku:b]}. */
    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean tryLock(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + waitNanos(wait);
        return BlockingNamesAcquisition.takeAll(locks,
                lock -> lock.tryLock(Duration.ofNanos(Math.max(0, deadline - System.nanoTime()))));
    }

    @Override
    public void lock() {
        try {
            BlockingNamesAcquisition.takeAll(locks, lock -> {
                lock.lock();
                return true;
            });
        } catch (InterruptedException ex) {
            throw new AssertionError("an uninterruptible lock threw InterruptedException", ex);
        }
    }

    @Override
    public void lockInterruptibly() throws InterruptedException {
        BlockingNamesAcquisition.takeAll(locks, lock -> {
            lock.lockInterruptibly();
            return true;
        });
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
        return new DetachedNames(name, locks.stream().map(FencedLock::detach).toList());
    }

    /** {@code wait} in nanoseconds, between 0 and a century (a longer wait, up to {@code Duration}'s largest, too). */
    private static long waitNanos(Duration wait) {
        return wait.compareTo(Duration.ofNanos(FOREVER_NANOS)) > 0 ? FOREVER_NANOS : Math.max(0, wait.toNanos());
    }

    @Override
    public CompletionStage<DetachedLock> tryLockAsync(Duration wait) {
        long deadline = System.nanoTime() + waitNanos(wait);
        return new NamesAcquisition(name, locks, deadline, false).start();
    }

    @Override
    public CompletionStage<DetachedLock> lockAsync() {
        return new NamesAcquisition(name, locks, 0, true).start();
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
        return other instanceof MultiNameLock multi && multi.locks.equals(locks);
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
