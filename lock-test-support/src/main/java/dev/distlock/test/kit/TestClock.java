package dev.distlock.test.kit;

import dev.distlock.core.runtime.DaemonThreads;
import dev.distlock.core.runtime.EngineExecutors;
import dev.distlock.core.runtime.LockRuntime;
import dev.distlock.test.MillisClock;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.PriorityQueue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.random.RandomGenerator;

/**
 * A {@link LockRuntime} whose time moves only by {@link #advance(Duration)}. Registries on it run their steps and
 * store calls on real daemon threads, so ordinary multi-threaded tests (blocking callers included) work; their timer
 * (lease deadlines, renewals, polls) fires only when {@code advance} passes a task's due time, in due order.
 */
public final class TestClock implements LockRuntime {

    private static final long START_MILLIS = Instant.parse("2030-01-01T00:00:00Z").toEpochMilli();

    private final AtomicLong nanos = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final long startNanos = nanos.get();
    private final PriorityQueue<TimerTask> due = new PriorityQueue<>();
    private final Random random = new Random(42);
    private final Set<TestExecutors> executors = new CopyOnWriteArraySet<>();
    private final Duration settleTimeout;
    private long sequence;

    /** A clock that waits up to 5 seconds for the work each advance makes due. */
    public TestClock() {
        this(Duration.ofSeconds(5));
    }

    /** A clock that waits up to {@code settleTimeout} for the work each advance makes due, per timer task. */
    public TestClock(Duration settleTimeout) {
        this.settleTimeout = Objects.requireNonNull(settleTimeout, "settleTimeout");
    }

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long currentTimeMillis() {
        return START_MILLIS + TimeUnit.NANOSECONDS.toMillis(nanos.get() - startNanos);
    }

    @Override
    public RandomGenerator random() {
        return random;
    }

    @Override
    public EngineExecutors newExecutors() {
        TestExecutors made = new TestExecutors(this);
        executors.add(made);
        return made;
    }

    /** This clock as a {@link Clock} (UTC), for a store or for application code that reads time. */
    public Clock asClock() {
        return MillisClock.of(this::currentTimeMillis);
    }

    /**
     * Moves time forward by {@code duration}: each timer task due by then runs, in due order, with the clock set to
     * its due time, and this returns once it and the work it handed on have run (each bounded by the settle
     * timeout). Tasks scheduled meanwhile run too if they fall due within the advance.
     *
     * @throws IllegalStateException if work made due does not finish within the settle timeout
     */
    public void advance(Duration duration) {
        if (duration.isNegative()) {
            throw new IllegalArgumentException("time does not go back: " + duration);
        }
        long target = nanos.get() + duration.toNanos();
        TimerTask next;
        while ((next = nextDue(target)) != null) {
            nanos.accumulateAndGet(next.dueNanos, Math::max);
            next.owner.runSettled(next.task, settleTimeout);
        }
        nanos.accumulateAndGet(target, Math::max);
        settleAll();
    }

    /** The time since this clock started. */
    public Duration elapsed() {
        return Duration.ofNanos(nanos.get() - startNanos);
    }

    /** How many timer tasks wait for their time (cancelled ones leave at once). */
    public synchronized int pendingTimers() {
        return due.size();
    }

    synchronized TimerTask schedule(TestExecutors owner, Runnable task, long delayNanos) {
        TimerTask timerTask = new TimerTask(nanos.get() + Math.max(0, delayNanos), sequence++, owner, task);
        due.add(timerTask);
        return timerTask;
    }

    synchronized void cancel(TimerTask task) {
        due.remove(task);
    }

    synchronized void cancelAll(TestExecutors owner) {
        due.removeIf(task -> task.owner == owner);
    }

    private synchronized TimerTask nextDue(long target) {
        TimerTask head = due.peek();
        return head != null && head.dueNanos <= target ? due.poll() : null;
    }

    private void settleAll() {
        for (TestExecutors executors : executors) {
            executors.awaitIdle(settleTimeout);
        }
    }

    void closed(TestExecutors owner) {
        executors.remove(owner);
        cancelAll(owner);
    }

    /** Threads for the kit's executors: real daemons, named so a thread dump shows them. */
    static ExecutorService pool(String name) {
        return DaemonThreads.pool(name, 8, 5);
    }

    record TimerTask(long dueNanos, long sequence, TestExecutors owner, Runnable task)
            implements Comparable<TimerTask> {

        @Override
        public int compareTo(TimerTask other) {
            int byTime = Long.compare(dueNanos, other.dueNanos);
            return byTime != 0 ? byTime : Long.compare(sequence, other.sequence);
        }
    }
}
