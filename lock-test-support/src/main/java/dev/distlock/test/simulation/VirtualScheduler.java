package dev.distlock.test.simulation;

import java.util.ArrayList;
import java.util.List;
import java.util.PriorityQueue;
import java.util.SplittableRandom;
import java.util.function.BooleanSupplier;

/**
 * Virtual time and the one thread everything of a simulation runs on: tasks due now run one at a time, in an order
 * drawn from the seed, and time jumps to the next timer when none is left. A task belongs to a {@link SimProcess} or
 * to nobody (the store, the network); a paused process's tasks wait until its pause ends, whatever is due meanwhile.
 * Not thread-safe: only the thread running {@link #runUntil} touches it.
 */
public final class VirtualScheduler {

    /** Where virtual time starts, in nanoseconds: far from zero, as a monotonic clock is. */
    static final long START_NANOS = 1_000_000_000_000L;
    /** Epoch milliseconds at the start: any fixed instant will do. */
    private static final long EPOCH_MILLIS = 1_800_000_000_000L;

    private final SplittableRandom random;
    private final List<Task> ready = new ArrayList<>();
    private final PriorityQueue<Task> timers = new PriorityQueue<>(
            (a, b) -> a.at != b.at ? Long.compare(a.at, b.at) : Long.compare(a.seq, b.seq));
    private final List<Throwable> failures = new ArrayList<>();
    private long now = START_NANOS;
    private long sequence;
    private long steps;

    VirtualScheduler(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** A scheduled task: cancelled, it is skipped when its turn comes. */
    static final class Task {

        final long at;
        final long seq;
        final SimProcess owner;
        final Runnable work;
        boolean cancelled;

        Task(long at, long seq, SimProcess owner, Runnable work) {
            this.at = at;
            this.seq = seq;
            this.owner = owner;
            this.work = work;
        }

        boolean runnableAt(long nanos) {
            return owner == null || owner.pausedUntil() <= nanos;
        }
    }

    /** The virtual monotonic time, in nanoseconds. */
    public long nanoTime() {
        return now;
    }

    /** The wall clock of the simulation, in epoch milliseconds: a fixed instant plus the virtual time. */
    public long currentTimeMillis() {
        return EPOCH_MILLIS + (now - START_NANOS) / 1_000_000;
    }

    /** How many tasks ran so far. */
    public long steps() {
        return steps;
    }

    /** A random number generator of its own for a part of the simulation, drawn from the seed. */
    SplittableRandom split() {
        return random.split();
    }

    SplittableRandom random() {
        return random;
    }

    /** Runs {@code work} for {@code owner} (or nobody) as soon as it is its turn. */
    Task soon(SimProcess owner, Runnable work) {
        Task task = new Task(now, sequence++, owner, work);
        ready.add(task);
        return task;
    }

    /** Runs {@code work} for {@code owner} (or nobody) after {@code delayNanos} of virtual time. */
    Task after(long delayNanos, SimProcess owner, Runnable work) {
        if (delayNanos <= 0) {
            return soon(owner, work);
        }
        Task task = new Task(now + delayNanos, sequence++, owner, work);
        timers.add(task);
        return task;
    }

    /** Unexpected exceptions thrown by tasks (the engine's own tasks catch what they expect). */
    List<Throwable> failures() {
        return failures;
    }

    /**
     * Runs tasks until {@code done} is true, nothing is left to run, or virtual time reaches {@code untilNanos}.
     *
     * @return whether {@code done} became true
     */
    boolean runUntil(BooleanSupplier done, long untilNanos) {
        while (!done.getAsBoolean()) {
            Task next = next(untilNanos);
            if (next == null) {
                return done.getAsBoolean();
            }
            steps++;
            try {
                next.work.run();
            } catch (RuntimeException | Error failure) {
                failures.add(failure);
            }
        }
        return true;
    }

    /** The next task to run, moving time on as needed; {@code null} when nothing is left before the limit. */
    private Task next(long untilNanos) {
        while (true) {
            List<Integer> runnable = new ArrayList<>();
            long wakeUp = Long.MAX_VALUE;
            for (int i = 0; i < ready.size(); i++) {
                Task task = ready.get(i);
                if (task.cancelled) {
                    continue;
                }
                if (task.runnableAt(now)) {
                    runnable.add(i);
                } else {
                    wakeUp = Math.min(wakeUp, task.owner.pausedUntil());
                }
            }
            if (!runnable.isEmpty()) {
                int index = runnable.get(random.nextInt(runnable.size()));
                Task chosen = ready.remove(index);
                ready.removeIf(task -> task.cancelled);
                return chosen;
            }
            ready.removeIf(task -> task.cancelled);
            while (!timers.isEmpty() && timers.peek().cancelled) {
                timers.poll();
            }
            if (!timers.isEmpty()) {
                wakeUp = Math.min(wakeUp, timers.peek().at);
            }
            if (wakeUp == Long.MAX_VALUE || wakeUp > untilNanos) {
                return null;
            }
            now = Math.max(now, wakeUp);
            while (!timers.isEmpty() && timers.peek().at <= now) {
                Task due = timers.poll();
                if (!due.cancelled) {
                    ready.add(due);
                }
            }
        }
    }
}
